import { useEffect, useRef } from 'react';
import type { UserProfile } from '../../../common';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';

interface Seen {
  limit: number;
  online: Map<string, boolean>;
}

/**
 * Tells teammates coming online or going offline (docs/decisions/019-announcements.md). The first list is
 * who was already there, and users brought in by 'Show more users' were there all along: neither is news.
 * A user who appears online in the same page is a teammate who just signed up and came in.
 */
export function usePresenceAnnouncements(users: readonly UserProfile[] | null, limit: number): void {
  const { report } = useAnnouncer();
  const uid = useAuthContext().user?.uid;
  const seenRef = useRef<Seen | null>(null);

  useEffect(() => {
    if (!users) return;
    const previous = seenRef.current;
    seenRef.current = { limit, online: new Map(users.map((user) => [user.id, user.online])) };
    if (!previous) return;
    for (const user of users) {
      if (user.id === uid) continue;
      const was = previous.online.get(user.id);
      const appeared = was === undefined && previous.limit === limit && user.online;
      if (appeared || (was !== undefined && was !== user.online)) {
        report({ kind: 'presence', userId: user.id, name: user.displayName, online: user.online });
      }
    }
  }, [users, limit, uid, report]);
}

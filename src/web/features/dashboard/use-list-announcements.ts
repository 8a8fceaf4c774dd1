import { useEffect, useRef } from 'react';
import { announcements, type DashboardFilter, type Project } from '../../../common';
import { useAnnouncer } from '../../hooks/use-announcer';

interface Seen {
  filter: DashboardFilter;
  createdAt: Map<string, string>;
}

/**
 * Tells the dashboard's changes (docs/decisions/019-announcements.md): the result of a filter the user
 * chose, and projects other people added or removed. The list a visit or a filter opens with is what the
 * user asked for, never 'new'; projects the user made are confirmed where they were made; 'Show more'
 * brings older projects, which are not new either.
 */
export function useListAnnouncements(
  filter: DashboardFilter,
  uid: string,
  docs: readonly Project[] | null,
  limit: number,
  hasMore: boolean,
): void {
  const { say, report } = useAnnouncer();
  const seenRef = useRef<Seen | null>(null);

  useEffect(() => {
    if (!docs) return;
    const previous = seenRef.current;
    seenRef.current = { filter, createdAt: new Map(docs.map((project) => [project.id, project.createdAt])) };
    if (!previous) return;
    if (previous.filter !== filter) {
      say(announcements.filterResult(filter, docs.length, hasMore));
      return;
    }
    const times = [...previous.createdAt.values()].sort();
    const newestBefore = times.at(-1) ?? '';
    const added = docs.filter(
      (project) =>
        !previous.createdAt.has(project.id) &&
        project.createdAt >= newestBefore &&
        project.createdBy.id !== uid,
    ).length;
    // A full page drops its oldest project when a new one arrives: that one was pushed out, not removed.
    const oldestShown = docs.at(-1)?.createdAt ?? '';
    const full = docs.length >= limit;
    const ids = new Set(docs.map((project) => project.id));
    const removed = [...previous.createdAt].filter(
      ([id, createdAt]) => !ids.has(id) && !(full && createdAt <= oldestShown),
    ).length;
    if (added > 0) report({ kind: 'projectsAdded', count: added });
    if (removed > 0) report({ kind: 'projectsRemoved', count: removed });
    // Run again with the same docs (e.g. 'Show more' raised the limit), nothing differs: nothing is said.
  }, [docs, filter, uid, limit, hasMore, say, report]);
}

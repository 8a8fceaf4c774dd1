import {
  NOTIFICATIONS_PAGE_MAX,
  NOTIFICATIONS_PAGE_SIZE,
  messages,
  type LiveDoc,
  type LiveQuery,
  type LiveTarget,
} from '../../common';
import type { Viewer } from '../core/viewer';
import type { LiveSource } from '../live/live-sources';
import { refuseCursors } from '../live/matches-where';
import { invalidArgument } from '../core/app-error';
import { notificationsReadableBy } from './notifications-read-rule';
import type { NotificationsService } from './notifications-service';

type NotificationsQuery = { userId: string; unreadCount: boolean; limit: number };

/**
 * Two queries, both only of one's own: `userId == me` is the newest page of the panel; adding
 * `unread == true` gives one doc `{ id: me, userId: me, unread: true, count }`, the bell's count.
 */
function notificationsQueryOf(query: LiveQuery, viewer: Viewer): NotificationsQuery {
  refuseCursors(query, 'Notifications');
  const refuse = () =>
    invalidArgument(
      { where: 'Notifications are read by userId (==), optionally unread (== true) for the count.' },
      messages.badRequest,
    );
  let userId: string | undefined;
  let unreadCount = false;
  for (const clause of query.where ?? []) {
    if (clause.op === '==' && clause.field === 'userId' && userId === undefined)
      userId = String(clause.value);
    else if (clause.op === '==' && clause.field === 'unread' && clause.value === true) unreadCount = true;
    else throw refuse();
  }
  if (userId === undefined || query.orderBy) throw refuse();
  notificationsReadableBy(viewer, userId);
  const limit = query.limit ?? NOTIFICATIONS_PAGE_SIZE;
  if (limit > NOTIFICATIONS_PAGE_MAX) {
    throw invalidArgument({ limit: `At most ${NOTIFICATIONS_PAGE_MAX} notifications at a time.` });
  }
  return { userId, unreadCount, limit };
}

/**
 * A change `{ notifications, <user id> }` names the user whose notifications changed. The hub routes it by
 * `find`, which therefore answers the same for every viewer and reveals nothing: the id echoed in the
 * fields both queries filter on. The count doc has the user's id, so its group is found without a read.
 */
export const notificationsLiveSource = (notifications: NotificationsService): LiveSource => ({
  // Only one's own, admins included; a doc target has nothing to follow (changes name users, not rows).
  authorize: (target: LiveTarget, viewer) => {
    if (target.kind !== 'query') {
      throw invalidArgument({ target: 'Follow notifications with a query.' }, messages.badRequest);
    }
    notificationsQueryOf(target, viewer);
  },
  resultsBelongTo: 'viewer',
  query: async (query, viewer) => {
    const { userId, unreadCount, limit } = notificationsQueryOf(query, viewer);
    if (unreadCount) return [await notifications.unreadCount(userId)];
    return notifications.newest(userId, limit);
  },
  find: async (id) => ({ id, userId: id, unread: true }),
  // The bells of everyone a comment told: one grouped count instead of one count each. Pages, and any
  // query refused, are left to `query` (which reports the refusal).
  queryMany: async (queries) => {
    const counts: { index: number; userId: string }[] = [];
    queries.forEach(({ query, viewer }, index) => {
      try {
        const { userId, unreadCount } = notificationsQueryOf(query, viewer);
        if (unreadCount) counts.push({ index, userId });
      } catch {
        // evaluated on its own
      }
    });
    const results: (LiveDoc[] | undefined)[] = queries.map(() => undefined);
    const docs = await notifications.unreadCounts(counts.map(({ userId }) => userId));
    counts.forEach(({ index }, position) => {
      const doc = docs[position];
      if (doc) results[index] = [doc];
    });
    return results;
  },
});

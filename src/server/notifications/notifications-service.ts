import type { Kysely } from 'kysely';
import {
  NOTIFICATION_KINDS,
  defaultNotificationPreference,
  messages,
  type Notification,
  type NotificationKind,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationUnreadCount,
  type UpdateNotificationPreferencesInput,
} from '../../common';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/schema';
import type { Change, ChangeBus } from '../live/change-bus';
import { invalidArgument, notFound } from '../core/app-error';
import { newId, newIds } from '../core/ids';
import { nowIso } from '../core/time';
import {
  countUnread,
  countUnreadOf,
  findNotificationSeq,
  inAppOptOutsOf,
  insertNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  readPreferences,
  writePreferences,
} from './notifications-repository';

/** Who should hear of one action, and as what; the actor is never told (docs/decisions/025-notifications.md). */
export interface NotificationDraft {
  kind: NotificationKind;
  /** In order of precedence: a user named by an earlier draft of the same action is not told twice. */
  recipientIds: readonly string[];
  projectId: string;
  commentId?: string;
  actorId: string;
}

/**
 * Inserts, inside the caller's transaction, the notifications an action causes: one multi-row insert, the
 * actor left out, each user told once (the first draft naming them wins, e.g. a mention over 'commented'),
 * and only kinds the user keeps on in the app. Returns the changes to publish once that transaction
 * committed: one per recipient (`notificationChanges`).
 */
export async function insertNotificationsFor(
  trx: Kysely<Database>,
  drafts: NotificationDraft[],
): Promise<Change[]> {
  const kindOf = new Map<string, NotificationDraft>();
  for (const draft of drafts) {
    for (const userId of draft.recipientIds) {
      if (userId !== draft.actorId && !kindOf.has(userId)) kindOf.set(userId, draft);
    }
  }
  if (kindOf.size === 0) return [];
  const optOuts = await inAppOptOutsOf(
    trx,
    [...kindOf.keys()],
    [...new Set(drafts.map((draft) => draft.kind))],
  );
  const createdAt = nowIso();
  const told = [...kindOf].filter(([userId, draft]) => !optOuts.has(`${userId}:${draft.kind}`));
  const ids = newIds(told.length);
  const rows = told.map(([userId, draft], index) => ({
    id: ids[index] ?? newId(),
    user_id: userId,
    kind: draft.kind,
    project_id: draft.projectId,
    comment_id: draft.commentId ?? null,
    actor_id: draft.actorId,
    created_at: createdAt,
  }));
  await insertNotifications(trx, rows);
  return notificationChanges(rows.map((row) => row.user_id));
}

/** The contract with every writer of notifications: `{ notifications, <recipient id> }` means "theirs changed". */
const notificationChanges = (userIds: Iterable<string>): Change[] =>
  // `after`: the fields both live queries filter on, so no instance reads anything to route the change.
  [...new Set(userIds)].map((id) => ({
    collection: 'notifications',
    id,
    after: { userId: id, unread: true },
  }));

/** Reading and marking one's own notifications, and choosing per kind. */
export class NotificationsService {
  constructor(private readonly deps: { db: Kysely<Database>; changes: ChangeBus; emailAvailable: boolean }) {}

  /** A page of the viewer's notifications, newest first; `cursor` is the previous page's `nextCursor`. */
  async page(viewer: Viewer, page: { limit: number; cursor?: string }): Promise<NotificationPage> {
    const { db } = this.deps;
    let beforeSeq: number | undefined;
    if (page.cursor !== undefined) {
      const seq = await findNotificationSeq(db, viewer.uid, page.cursor);
      if (seq === null) throw invalidArgument({ cursor: messages.notificationCursorInvalid });
      beforeSeq = seq;
    }
    // One more than asked tells whether an older page exists without a count.
    const rows = await listNotifications(db, viewer.uid, { limit: page.limit + 1, beforeSeq });
    const notifications = rows.slice(0, page.limit).map(withoutSeq);
    return {
      notifications,
      nextCursor: rows.length > page.limit ? (notifications.at(-1)?.id ?? null) : null,
    };
  }

  /** The newest notifications of a user, for their live panel. */
  async newest(userId: string, limit: number): Promise<Notification[]> {
    return (await listNotifications(this.deps.db, userId, { limit })).map(withoutSeq);
  }

  async unreadCount(userId: string): Promise<NotificationUnreadCount> {
    return { id: userId, userId, unread: true, count: await countUnread(this.deps.db, userId) };
  }

  /** The unread counts of many members with one read, in the order asked (1,000 bells after one comment). */
  async unreadCounts(userIds: string[]): Promise<NotificationUnreadCount[]> {
    const counts = await countUnreadOf(this.deps.db, [...new Set(userIds)]);
    return userIds.map((userId) => ({ id: userId, userId, unread: true, count: counts.get(userId) ?? 0 }));
  }

  async markRead(viewer: Viewer, id: string): Promise<void> {
    // Someone else's notification answers as one that does not exist: ids are not to be probed.
    const outcome = await markNotificationRead(this.deps.db, viewer.uid, id, nowIso());
    if (outcome === 'missing') throw notFound(messages.notificationNotFound);
    if (outcome === 'changed') await this.deps.changes.publish(notificationChanges([viewer.uid]));
  }

  async markAllRead(viewer: Viewer): Promise<void> {
    const changed = await markAllNotificationsRead(this.deps.db, viewer.uid, nowIso());
    if (changed > 0) await this.deps.changes.publish(notificationChanges([viewer.uid]));
  }

  async preferences(viewer: Viewer): Promise<NotificationPreferences> {
    const chosen = new Map(
      (await readPreferences(this.deps.db, viewer.uid)).map((preference) => [preference.kind, preference]),
    );
    return {
      preferences: NOTIFICATION_KINDS.map((kind) => chosen.get(kind) ?? defaultNotificationPreference(kind)),
      emailAvailable: this.deps.emailAvailable,
    };
  }

  async updatePreferences(
    viewer: Viewer,
    input: UpdateNotificationPreferencesInput,
  ): Promise<NotificationPreferences> {
    const byKind = new Map(input.preferences.map((preference) => [preference.kind, preference]));
    await writePreferences(this.deps.db, viewer.uid, [...byKind.values()]);
    return this.preferences(viewer);
  }
}

const withoutSeq = ({ seq: _seq, ...notification }: Notification & { seq: number }): Notification =>
  notification;

import type { Kysely } from 'kysely';
import {
  NOTIFICATION_KINDS,
  UNREAD_COUNT_CAP,
  defaultNotificationPreference,
  messages,
  type Notification,
  type NotificationKind,
  type NotificationPage,
  type NotificationPreferences,
  type NotificationUnreadCount,
  type UpdateNotificationPreferencesInput,
} from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { Change } from '../db/change-bus';
import type { Notified, Notifier, UnitOfWork } from '../db/unit-of-work';
import { invalidArgument, notFound } from '../core/app-error';
import { newId, newIds } from '../core/ids';
import { nowIso } from '../core/time';
import { pageFromExtraRow } from '../core/pages';
import {
  countUnread,
  countUnreadOf,
  findNotificationSeq,
  insertNotificationJob,
  insertNotificationsUnlessOptedOut,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  readPreferences,
  writePreferences,
  type NotificationRow,
} from './notifications-repository';
import { notificationsReadableBy } from './notifications-read-rule';

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
 * Up to this many recipients, an action's notifications are written in its own transaction; more are
 * queued there and written right after its answer (docs/decisions/034-queued-notifications.md). An action
 * through the API tells at most a project's assignees and creator plus whom its comment mentions.
 */
export const INLINE_RECIPIENTS_MAX = 100;

/**
 * The notifications an action causes, inside its transaction: the actor left out, each user told once
 * (the first draft naming them wins, e.g. a mention over 'commented'). Few recipients are written at once;
 * many are queued as one job, so the action's answer does not wait for a thousand rows.
 */
async function notifyWithin(trx: Kysely<Database>, drafts: readonly NotificationDraft[]): Promise<Notified> {
  const recipients = recipientsOf(drafts);
  if (recipients.size === 0) return { changes: [], queued: false };
  if (recipients.size > INLINE_RECIPIENTS_MAX) {
    await insertNotificationJob(trx, { drafts: JSON.stringify(drafts), createdAt: nowIso() });
    return { changes: [], queued: true };
  }
  return { changes: await writeNotifications(trx, recipients), queued: false };
}

/** Who is told, and by which draft: the actor never, each user once, the first draft naming them wins. */
export function recipientsOf(drafts: readonly NotificationDraft[]): Map<string, NotificationDraft> {
  const draftOf = new Map<string, NotificationDraft>();
  for (const draft of drafts) {
    for (const userId of draft.recipientIds) {
      if (userId !== draft.actorId && !draftOf.has(userId)) draftOf.set(userId, draft);
    }
  }
  return draftOf;
}

/** The contract with every writer of notifications: `{ notifications, <recipient id> }` means "theirs changed". */
const notificationChange = (userId: string): Change => ({
  collection: 'notifications',
  id: userId,
  // The fields both live queries filter on, so no instance reads anything to route the change.
  after: { userId, unread: true },
});

/**
 * Inserts the notifications of these recipients in one multi-row insert, leaving out the kinds a user
 * turned off in the app. Returns the changes to publish once the transaction committed: one per recipient told.
 */
export async function writeNotifications(
  trx: Kysely<Database>,
  recipients: Map<string, NotificationDraft>,
): Promise<Change[]> {
  if (recipients.size === 0) return [];
  const told = await insertNotificationsUnlessOptedOut(trx, notificationRows(recipients));
  return [...new Set(told)].map(notificationChange);
}

/**
 * An action's notifications as rows for a statement of its own to insert (`insertNotificationsUnlessOptedOutSql`),
 * with the change each recipient's bell gets if their row is written; null when there are more recipients
 * than are written inline (`notifyWithin` queues those).
 */
function inlineNotifications(
  drafts: readonly NotificationDraft[],
): { rows: NotificationRow[]; changes: Map<string, Change> } | null {
  const recipients = recipientsOf(drafts);
  if (recipients.size > INLINE_RECIPIENTS_MAX) return null;
  const userIds = [...recipients.keys()];
  return {
    rows: notificationRows(recipients),
    changes: new Map(userIds.map((userId) => [userId, notificationChange(userId)])),
  };
}

/** The unit of work's notifier (db/unit-of-work.ts): in-app notifications; a queued job goes to `jobs`. */
export const inAppNotifier = (jobs: { queued(): void }): Notifier<NotificationDraft, NotificationRow> => ({
  writeWithin: notifyWithin,
  rowsForStatement: inlineNotifications,
  queued: () => jobs.queued(),
});

/** The unit of work of writes that tell people: the notifications they cause are `NotificationDraft`s. */
export type NotifyingUnitOfWork = UnitOfWork<NotificationDraft, NotificationRow>;

function notificationRows(recipients: Map<string, NotificationDraft>): NotificationRow[] {
  const createdAt = nowIso();
  const ids = newIds(recipients.size);
  return [...recipients].map(([userId, draft], index) => ({
    id: ids[index] ?? newId(),
    user_id: userId,
    kind: draft.kind,
    project_id: draft.projectId,
    comment_id: draft.commentId ?? null,
    actor_id: draft.actorId,
    created_at: createdAt,
  }));
}

/** Reading and marking one's own notifications, and choosing per kind. */
export class NotificationsService {
  constructor(
    private readonly deps: { db: Kysely<Database>; writes: NotifyingUnitOfWork; emailAvailable: boolean },
  ) {}

  /** A page of the viewer's notifications, newest first; `cursor` is the previous page's `nextCursor`. */
  async page(viewer: Viewer, page: { limit: number; cursor?: string }): Promise<NotificationPage> {
    const { db } = this.deps;
    const owner = notificationsReadableBy(viewer);
    let beforeSeq: number | undefined;
    if (page.cursor !== undefined) {
      const seq = await findNotificationSeq(db, owner, page.cursor);
      if (seq === null) throw invalidArgument({ cursor: messages.notificationCursorInvalid });
      beforeSeq = seq;
    }
    const { items, next } = pageFromExtraRow(
      await listNotifications(db, owner, { limit: page.limit + 1, beforeSeq }),
      page.limit,
      (last) => last.id,
    );
    return { notifications: items.map(withoutSeq), nextCursor: next };
  }

  /** The newest notifications of a user, for their live panel. */
  async newest(userId: string, limit: number): Promise<Notification[]> {
    return (await listNotifications(this.deps.db, userId, { limit })).map(withoutSeq);
  }

  async unreadCount(userId: string): Promise<NotificationUnreadCount> {
    return unreadCountOf(userId, await countUnread(this.deps.db, userId, UNREAD_COUNT_CAP));
  }

  /** The unread counts of many members with one read, in the order asked (1,000 bells after one comment). */
  async unreadCounts(userIds: string[]): Promise<NotificationUnreadCount[]> {
    const counts = await countUnreadOf(this.deps.db, [...new Set(userIds)], UNREAD_COUNT_CAP);
    return userIds.map((userId) => unreadCountOf(userId, counts.get(userId) ?? 0));
  }

  async markRead(viewer: Viewer, id: string): Promise<void> {
    const outcome = await this.deps.writes.runWithoutTransaction(async (db, write) => {
      const outcome = await markNotificationRead(db, viewer.uid, id, nowIso());
      if (outcome === 'changed') write.changed(notificationChange(viewer.uid));
      return outcome;
    });
    // Someone else's notification answers as one that does not exist: ids are not to be probed.
    if (outcome === 'missing') throw notFound(messages.notificationNotFound);
  }

  async markAllRead(viewer: Viewer): Promise<void> {
    await this.deps.writes.runWithoutTransaction(async (db, write) => {
      if ((await markAllNotificationsRead(db, viewer.uid, nowIso())) > 0) {
        write.changed(notificationChange(viewer.uid));
      }
    });
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

/** A member's bell: its id is the member's, and it carries the `unread` field its live query filters on. */
const unreadCountOf = (userId: string, count: number): NotificationUnreadCount => ({
  id: userId,
  userId,
  unread: true,
  count,
});

const withoutSeq = ({ seq: _seq, ...notification }: Notification & { seq: number }): Notification =>
  notification;

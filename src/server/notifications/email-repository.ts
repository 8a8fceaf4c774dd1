import { sql, type Kysely } from 'kysely';
import type { NotificationEmailMode, NotificationKind } from '../../common';
import type { Database } from '../db/schema';
import { findSetting } from '../db/settings-repository';

const WATERMARK_KEY = 'notification_email_seq';
/**
 * How far behind the watermark each scan looks again. On PostgreSQL a notification may commit after one
 * with a higher `seq` was seen; rescanning a window (idempotent: the outbox key is the notification) catches
 * it. SQLite commits in `seq` order.
 */
const RESCAN_WINDOW = 5_000;

export interface EmailCandidate {
  notificationId: string;
  userId: string;
  mode: Exclude<NotificationEmailMode, 'off'>;
  seq: number;
}

/**
 * Notifications after the watermark (less the rescan window) whose recipient is an active member who wants
 * them by email and that are not in the outbox yet, up to `limit`; and the `seq` the watermark may move to
 * once they are queued. A deactivated or deleted account gets nothing (decision 046).
 */
export async function findEmailCandidates(
  db: Kysely<Database>,
  limit: number,
): Promise<{ candidates: EmailCandidate[]; scannedUpTo: number }> {
  const watermark = Number((await findSetting(db, WATERMARK_KEY)) ?? 0);
  const newest = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  const newestSeq = Number(newest?.seq ?? 0);
  const rows = await db
    .selectFrom('notifications as n')
    .innerJoin('notification_preferences as pref', (join) =>
      join.onRef('pref.user_id', '=', 'n.user_id').onRef('pref.kind', '=', 'n.kind'),
    )
    .innerJoin('users as recipient', 'recipient.id', 'n.user_id')
    .leftJoin('notification_emails as queued', 'queued.notification_id', 'n.id')
    .select(['n.id', 'n.user_id', 'n.seq', 'pref.email'])
    .where('recipient.status', '=', 'active')
    .where('n.seq', '>', watermark - RESCAN_WINDOW)
    .where('n.seq', '<=', newestSeq)
    .where('pref.email', 'in', ['immediate', 'digest'])
    .where('queued.notification_id', 'is', null)
    .orderBy('n.seq')
    .limit(limit)
    .execute();
  const candidates = rows.map((row) => ({
    notificationId: row.id,
    userId: row.user_id,
    mode: row.email as EmailCandidate['mode'],
    seq: Number(row.seq),
  }));
  // A full page may stop short of the newest: the watermark then moves only as far as this page.
  const scannedUpTo = candidates.length === limit ? candidates[candidates.length - 1]!.seq : newestSeq;
  return { candidates, scannedUpTo };
}

export interface OutboxRow {
  notificationId: string;
  userId: string;
  batchKey: string;
  digestDay: string | null;
}

/** Adds rows to the outbox; a row already there (another instance, a rescan) stays as it is. */
export async function insertOutboxRows(db: Kysely<Database>, rows: OutboxRow[], now: string): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notification_emails')
    .values(
      rows.map((row) => ({
        notification_id: row.notificationId,
        user_id: row.userId,
        batch_key: row.batchKey,
        digest_day: row.digestDay,
        created_at: now,
      })),
    )
    .onConflict((conflict) => conflict.column('notification_id').doNothing())
    .execute();
}

/** Moves the watermark forward to `seq` (never back: two instances may race). */
export async function advanceWatermark(db: Kysely<Database>, seq: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const current = Number((await findSetting(trx, WATERMARK_KEY)) ?? 0);
    if (seq <= current) return;
    await trx
      .insertInto('settings')
      .values({ key: WATERMARK_KEY, value: String(seq) })
      .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(seq) }))
      .execute();
  });
}

/** Batches with unsent rows that may go now: immediate ones, and digests of days up to `digestDayDue`. */
export async function findDueBatches(
  db: Kysely<Database>,
  digestDayDue: string,
  realNow: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('notification_emails')
    .select('batch_key')
    .distinct()
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', realNow)]))
    .where((eb) => eb.or([eb('digest_day', 'is', null), eb('digest_day', '<=', digestDayDue)]))
    .limit(limit)
    .execute();
  return rows.map((row) => row.batch_key);
}

/**
 * Claims a batch's unsent rows until `claimedUntil` in one statement: of two instances trying at once, the
 * second finds them claimed (PostgreSQL re-checks the condition after the first commits) and gets none.
 */
export async function claimBatch(
  db: Kysely<Database>,
  batchKey: string,
  realNow: string,
  claimedUntil: string,
): Promise<string[]> {
  const claimed = await db
    .updateTable('notification_emails')
    .set({ claimed_until: claimedUntil })
    .where('batch_key', '=', batchKey)
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', realNow)]))
    .returning('notification_id')
    .execute();
  return claimed.map((row) => row.notification_id);
}

export async function markSent(db: Kysely<Database>, notificationIds: string[], now: string): Promise<void> {
  if (notificationIds.length === 0) return;
  await db
    .updateTable('notification_emails')
    .set({ sent_at: now, claimed_until: null })
    .where('notification_id', 'in', notificationIds)
    .execute();
}

/** After an SMTP failure: the rows wait until `retryAt`, then any instance may try again. */
export async function markFailed(
  db: Kysely<Database>,
  notificationIds: string[],
  retryAt: string,
): Promise<void> {
  if (notificationIds.length === 0) return;
  await db
    .updateTable('notification_emails')
    .set((eb) => ({ claimed_until: retryAt, attempts: eb('attempts', '+', 1) }))
    .where('notification_id', 'in', notificationIds)
    .execute();
}

export interface MailableNotification {
  id: string;
  kind: NotificationKind;
  projectId: string;
  projectName: string;
  commentId: string | null;
  actorName: string | null;
  createdAt: string;
  recipientId: string;
  recipientEmail: string;
  recipientName: string;
  /** The recipient's current choice for this kind: a kind turned off since is not sent. */
  email: string | null;
}

/** The claimed notifications that may still be mailed: their recipient is an active member (decision 046). */
export async function findMailableNotifications(
  db: Kysely<Database>,
  notificationIds: string[],
): Promise<MailableNotification[]> {
  if (notificationIds.length === 0) return [];
  const rows = await db
    .selectFrom('notifications as n')
    .innerJoin('projects as p', 'p.id', 'n.project_id')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .leftJoin('users as actor', 'actor.id', 'n.actor_id')
    .leftJoin('notification_preferences as pref', (join) =>
      join.onRef('pref.user_id', '=', 'n.user_id').onRef('pref.kind', '=', 'n.kind'),
    )
    .select([
      'n.id',
      'n.kind',
      'n.project_id',
      'p.name as project_name',
      'n.comment_id',
      'actor.display_name as actor_name',
      'n.created_at',
      'n.user_id',
      'u.email as user_email',
      'u.display_name as user_name',
      'pref.email',
    ])
    .where('n.id', 'in', notificationIds)
    .where('u.status', '=', 'active')
    .orderBy('n.seq')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as NotificationKind,
    projectId: row.project_id,
    projectName: row.project_name,
    commentId: row.comment_id,
    actorName: row.actor_name,
    createdAt: row.created_at,
    recipientId: row.user_id,
    recipientEmail: row.user_email,
    recipientName: row.user_name,
    email: row.email,
  }));
}

/**
 * Inside the transaction that deactivates, deletes or reactivates `userId`: nothing mailed so far will ever
 * be (decision 046). Every notification of theirs a later scan could still see (inside the rescan window)
 * gets an outbox row, and their unsent rows are marked done: a reactivated member is mailed only what
 * comes after.
 */
export async function dropQueuedEmails(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  const watermark = Number((await findSetting(db, WATERMARK_KEY)) ?? 0);
  await db
    .insertInto('notification_emails')
    .columns(['notification_id', 'user_id', 'batch_key', 'digest_day', 'created_at', 'sent_at'])
    .expression(
      db
        .selectFrom('notifications as n')
        .select([
          'n.id',
          'n.user_id',
          sql<string>`${sql.lit('dropped:')} || n.id`.as('batch_key'),
          sql<null>`null`.as('digest_day'),
          sql<string>`cast(${now} as text)`.as('created_at'),
          sql<string>`cast(${now} as text)`.as('sent_at'),
        ])
        .where('n.user_id', '=', userId)
        .where('n.seq', '>', watermark - RESCAN_WINDOW),
    )
    .onConflict((conflict) => conflict.column('notification_id').doNothing())
    .execute();
  await db
    .updateTable('notification_emails')
    .set({ sent_at: now, claimed_until: null })
    .where('user_id', '=', userId)
    .where('sent_at', 'is', null)
    .execute();
}

/** Turns one kind's email off for a user, keeping their in-app choice (no row yet: in-app stays on). */
export async function turnEmailOff(
  db: Kysely<Database>,
  userId: string,
  kind: NotificationKind,
): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) return false;
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, kind, in_app: 1, email: 'off' })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).doUpdateSet({ email: sql.lit('off') }))
    .execute();
  return true;
}

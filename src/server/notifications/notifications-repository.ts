import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Notification, NotificationKind, NotificationPreference } from '../../common';
import type { Database, NotificationsTable } from '../db/schema';

/** One row to insert; the service fills ids and times. */
export interface NotificationRow extends Pick<
  NotificationsTable,
  'id' | 'user_id' | 'project_id' | 'comment_id' | 'actor_id' | 'created_at'
> {
  kind: NotificationKind;
}

/**
 * Rows per INSERT statement: 7 values each stays far below SQLite's 32,766 and PostgreSQL's 65,535 bound
 * parameters, so a comment on a project with 1,000 assignees is one statement.
 */
const INSERT_BATCH = 2000;

/**
 * Inserts these rows but those of a member who turned that kind off in the app (no preference row means
 * on), in one statement per batch: the opt-outs are checked by the insert itself rather than read first,
 * one round trip less on every write that notifies. Returns the user ids told.
 */
export async function insertNotificationsUnlessOptedOut(
  db: Kysely<Database>,
  rows: NotificationRow[],
): Promise<string[]> {
  const told: string[] = [];
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const inserted = await insertNotificationsUnlessOptedOutSql(
      rows.slice(start, start + INSERT_BATCH),
    ).execute(db);
    told.push(...inserted.rows.map((row) => row.user_id));
  }
  return told;
}

/**
 * The insert of `insertNotificationsUnlessOptedOut` for at most `INSERT_BATCH` rows, `returning user_id`,
 * for a statement of the caller's own (a `with` part); `onlyIf` is a condition on the whole insert.
 */
export function insertNotificationsUnlessOptedOutSql(
  rows: NotificationRow[],
  onlyIf: RawBuilder<unknown> = sql`true`,
): RawBuilder<{ user_id: string }> {
  const values = rows.map(
    (row) =>
      sql`(${row.id}, ${row.user_id}, ${row.kind}, ${row.project_id}, ${row.comment_id}, ${row.actor_id}, ${row.created_at})`,
  );
  // A VALUES list's columns are column1…column7 on both engines.
  return sql<{ user_id: string }>`
    insert into notifications (id, user_id, kind, project_id, comment_id, actor_id, created_at)
    select v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, v.column7
    from (values ${sql.join(values)}) as v
    where ${onlyIf} and not exists (
      select 1 from notification_preferences as p
      where p.user_id = v.column2 and p.kind = v.column3 and p.in_app = 0
    )
    returning user_id`;
}

/** Queues an action's notifications (their drafts as JSON) inside the action's transaction. */
export async function insertNotificationJob(
  db: Kysely<Database>,
  job: { drafts: string; createdAt: string },
): Promise<void> {
  await db
    .insertInto('notification_jobs')
    .values({ drafts: job.drafts, created_at: job.createdAt })
    .execute();
}

/** The oldest queued jobs' keys, oldest first. */
export async function pendingNotificationJobs(db: Kysely<Database>, limit: number): Promise<number[]> {
  const rows = await db.selectFrom('notification_jobs').select('seq').orderBy('seq').limit(limit).execute();
  return rows.map((row) => Number(row.seq));
}

/**
 * Removes a queued job and returns its drafts, or undefined when it is gone: another instance took it. Run
 * inside the transaction that writes its notifications, so a job is written exactly once (on PostgreSQL a
 * second taker waits on the row until the first commits, then finds nothing).
 */
export async function takeNotificationJob(db: Kysely<Database>, seq: number): Promise<string | undefined> {
  const row = await db
    .deleteFrom('notification_jobs')
    .where('seq', '=', seq)
    .returning('drafts')
    .executeTakeFirst();
  return row?.drafts;
}

/** Of these users, the ones who may be told anything: they exist and are active. */
export async function activeUserIdsOf(db: Kysely<Database>, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', userIds)
    .where('status', '=', 'active')
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** A project's creator and assignees who are active: the people "on" it. */
export async function activeProjectMembersOf(db: Kysely<Database>, projectId: string): Promise<string[]> {
  const assignees = db
    .selectFrom('project_assignees')
    .select('project_assignees.user_id as id')
    .where('project_assignees.project_id', '=', projectId);
  const creator = db
    .selectFrom('projects')
    .select('projects.created_by as id')
    .where('projects.id', '=', projectId);
  const rows = await db
    .selectFrom(assignees.union(creator).as('members'))
    .innerJoin('users', 'users.id', 'members.id')
    .select('users.id')
    .where('users.status', '=', 'active')
    .execute();
  return rows.map((row) => row.id);
}

/** A member's notifications, newest first, older than `beforeSeq` when given; with project and actor names. */
export async function listNotifications(
  db: Kysely<Database>,
  userId: string,
  page: { limit: number; beforeSeq?: number },
): Promise<(Notification & { seq: number })[]> {
  let select = db
    .selectFrom('notifications')
    .innerJoin('projects', 'projects.id', 'notifications.project_id')
    .leftJoin('users as actors', 'actors.id', 'notifications.actor_id')
    .select([
      'notifications.seq',
      'notifications.id',
      'notifications.kind',
      'notifications.project_id',
      'projects.name as project_name',
      'notifications.comment_id',
      'notifications.actor_id',
      'actors.display_name as actor_name',
      'notifications.created_at',
      'notifications.read_at',
    ])
    .where('notifications.user_id', '=', userId);
  if (page.beforeSeq !== undefined) select = select.where('notifications.seq', '<', page.beforeSeq);
  const rows = await select.orderBy('notifications.seq', 'desc').limit(page.limit).execute();
  return rows.map((row) => ({
    seq: Number(row.seq),
    id: row.id,
    kind: row.kind as NotificationKind,
    projectId: row.project_id,
    projectName: row.project_name,
    commentId: row.comment_id,
    actor: row.actor_id === null ? null : { id: row.actor_id, displayName: row.actor_name ?? '' },
    createdAt: row.created_at,
    readAt: row.read_at,
  }));
}

/** The seq of one of the member's notifications (a page cursor), or null. */
export async function findNotificationSeq(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('notifications')
    .select('seq')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? Number(row.seq) : null;
}

/**
 * A member's unread notifications, counted up to `cap`: unread rows only, so the partial index
 * `notifications_user_unread` answers it, and no further than the bell shows.
 */
export async function countUnread(db: Kysely<Database>, userId: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) => unreadOf(eb, userId, cap).as('unread'))
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Users per statement of `countUnreadOf`, well below either engine's bound parameters. */
const COUNT_BATCH = 500;

/**
 * The unread counts of many members, each up to `cap`, in one read per 500; a member without unread
 * notifications is absent from the map.
 */
export async function countUnreadOf(
  db: Kysely<Database>,
  userIds: string[],
  cap: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let start = 0; start < userIds.length; start += COUNT_BATCH) {
    const rows = await db
      .selectFrom('users')
      .select((eb) => [
        'users.id',
        eb
          .selectFrom(unreadOf(eb, eb.ref('users.id'), cap).as('unread'))
          .select((inner) => inner.fn.countAll<number | string | bigint>().as('count'))
          .as('count'),
      ])
      .where('users.id', 'in', userIds.slice(start, start + COUNT_BATCH))
      .execute();
    for (const row of rows) {
      const count = Number(row.count ?? 0);
      if (count > 0) counts.set(row.id, count);
    }
  }
  return counts;
}

/** At most `cap` of a member's unread notifications (the member as a value or as a column of the outer query). */
const unreadOf = (
  eb: ExpressionBuilder<Database, keyof Database>,
  userId: string | Expression<string>,
  cap: number,
) =>
  eb
    .selectFrom('notifications')
    .select('notifications.seq')
    .where('notifications.user_id', '=', userId)
    .where('notifications.read_at', 'is', null)
    .limit(cap);

/** Marks one of the member's notifications read; 'missing' when it is not theirs or not there. */
export async function markNotificationRead(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: string,
): Promise<'changed' | 'unchanged' | 'missing'> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return 'changed';
  return (await findNotificationSeq(db, userId, id)) === null ? 'missing' : 'unchanged';
}

/** How many were unread and are now read. */
export async function markAllNotificationsRead(
  db: Kysely<Database>,
  userId: string,
  now: string,
): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function readPreferences(
  db: Kysely<Database>,
  userId: string,
): Promise<NotificationPreference[]> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['kind', 'in_app', 'email'])
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => ({
    kind: row.kind as NotificationKind,
    inApp: row.in_app !== 0,
    email: row.email as NotificationPreference['email'],
  }));
}

/** Replaces the member's choice for the kinds given (delete then insert: portable across both engines). */
export async function writePreferences(
  db: Kysely<Database>,
  userId: string,
  preferences: NotificationPreference[],
): Promise<void> {
  if (preferences.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('notification_preferences')
      .where('user_id', '=', userId)
      .where(
        'kind',
        'in',
        preferences.map((preference) => preference.kind),
      )
      .execute();
    await trx
      .insertInto('notification_preferences')
      .values(
        preferences.map((preference) => ({
          user_id: userId,
          kind: preference.kind,
          in_app: preference.inApp ? 1 : 0,
          email: preference.email,
        })),
      )
      .execute();
  });
}

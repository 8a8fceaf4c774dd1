import { sql, type Kysely } from 'kysely';
import type { NotificationKind } from '../../common';
import type { Database } from '../db/schema';

type ReminderKind = Extract<NotificationKind, 'due_tomorrow' | 'overdue'>;

export interface DueReminderDays {
  /** Calendar days YYYY-MM-DD in the configured time zone. */
  today: string;
  tomorrow: string;
  /** ISO time the reminders are stamped with. */
  now: string;
}

/**
 * Creates one kind's reminders for every open project it applies to, for its creator and assignees, in one
 * statement. The dedupe key `kind:project:user:due_date` is UNIQUE, so `on conflict do nothing` makes a
 * second tick, a second instance or a restart create nothing again; a moved due date reminds once more.
 * Members who turned the kind off in the app get none, nor do deactivated or deleted accounts (decision 046).
 * Returns the users who got a new notification.
 */
export async function insertDueReminders(
  db: Kysely<Database>,
  kind: ReminderKind,
  days: DueReminderDays,
): Promise<string[]> {
  const members = db
    .selectFrom('project_assignees')
    .select(['project_assignees.project_id', 'project_assignees.user_id'])
    .union(db.selectFrom('projects').select(['projects.id as project_id', 'projects.created_by as user_id']));
  const dedupeKey = sql<string>`${sql.lit(kind)} || ':' || p.id || ':' || m.user_id || ':' || p.due_date`;
  const candidates = db
    .selectFrom(members.as('m'))
    .innerJoin('projects as p', 'p.id', 'm.project_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('notification_preferences as pref', (join) =>
      join.onRef('pref.user_id', '=', 'm.user_id').on('pref.kind', '=', sql.lit(kind)),
    )
    .where('p.completed_at', 'is', null)
    .where('u.status', '=', 'active')
    .where(
      'p.due_date',
      kind === 'due_tomorrow' ? '=' : '<',
      kind === 'due_tomorrow' ? days.tomorrow : days.today,
    )
    .where((eb) => eb.or([eb('pref.in_app', 'is', null), eb('pref.in_app', '=', 1)]))
    // Skips what earlier ticks created, so a tick attempts only new rows (a conflicting insert still costs
    // an index probe and, on PostgreSQL, an identity value); `on conflict` below stays the guarantee.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications as sent').select('sent.seq').where('sent.dedupe_key', '=', dedupeKey),
        ),
      ),
    )
    .select([
      // The dedupe key is unique, so it is also the reminder's id: no id generator in SQL for either engine.
      dedupeKey.as('id'),
      'm.user_id as user_id',
      sql.lit(kind).as('kind'),
      'p.id as project_id',
      dedupeKey.as('dedupe_key'),
      sql<string>`cast(${days.now} as text)`.as('created_at'),
    ]);
  const inserted = await db
    .insertInto('notifications')
    .columns(['id', 'user_id', 'kind', 'project_id', 'dedupe_key', 'created_at'])
    .expression(candidates)
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .returning('user_id')
    .execute();
  return inserted.map((row) => row.user_id);
}

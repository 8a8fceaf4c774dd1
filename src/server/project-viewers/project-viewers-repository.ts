import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Both engines cap the number of bound parameters per statement: id lists go in chunks of this. */
const IDS_PER_STATEMENT = 500;

export interface ViewingRow {
  instanceId: string;
  viewingId: string;
  projectId: string;
  userId: string;
}

export async function insertViewing(db: Kysely<Database>, row: ViewingRow, now: string): Promise<void> {
  await db
    .insertInto('project_viewers')
    .values({
      instance_id: row.instanceId,
      viewing_id: row.viewingId,
      project_id: row.projectId,
      user_id: row.userId,
      last_seen_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(['instance_id', 'viewing_id']).doUpdateSet({ last_seen_at: now }),
    )
    .execute();
}

export async function deleteViewing(
  db: Kysely<Database>,
  instanceId: string,
  viewingId: string,
): Promise<void> {
  await db
    .deleteFrom('project_viewers')
    .where('instance_id', '=', instanceId)
    .where('viewing_id', '=', viewingId)
    .execute();
}

/** Sets `last_seen_at` of this instance's rows with the given viewing ids. */
export async function touchViewings(
  db: Kysely<Database>,
  instanceId: string,
  viewingIds: string[],
  now: string,
): Promise<void> {
  for (let start = 0; start < viewingIds.length; start += IDS_PER_STATEMENT) {
    await db
      .updateTable('project_viewers')
      .set({ last_seen_at: now })
      .where('instance_id', '=', instanceId)
      .where('viewing_id', 'in', viewingIds.slice(start, start + IDS_PER_STATEMENT))
      .execute();
  }
}

/** Rows no instance refreshed since `before` (closed without a word, or their instance died). */
export async function deleteViewingsSeenBefore(
  db: Kysely<Database>,
  before: string,
): Promise<{ projectId: string; userId: string }[]> {
  const rows = await db
    .deleteFrom('project_viewers')
    .where('last_seen_at', '<', before)
    .returning(['project_id', 'user_id'])
    .execute();
  return rows.map((row) => ({ projectId: row.project_id, userId: row.user_id }));
}

/** The active members with a fresh row on the project, by name. */
export async function listProjectViewers(
  db: Kysely<Database>,
  projectId: string,
  freshSince: string,
): Promise<{ id: string; displayName: string; photoURL: string }[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'photo_url'])
    .where('status', '=', 'active')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('project_viewers')
          .select('project_viewers.user_id')
          .whereRef('project_viewers.user_id', '=', 'users.id')
          .where('project_viewers.project_id', '=', projectId)
          .where('project_viewers.last_seen_at', '>=', freshSince),
      ),
    )
    .orderBy('display_name')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, displayName: row.display_name, photoURL: row.photo_url }));
}

import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Database, StorageUploadsTable } from '../../db/schema';

export type UploadRow = Selectable<StorageUploadsTable>;

export async function insertUpload(
  db: Kysely<Database>,
  row: Insertable<StorageUploadsTable>,
): Promise<void> {
  await db.insertInto('storage_uploads').values(row).execute();
}

export const findUpload = async (db: Kysely<Database>, uploadId: string) =>
  (await db.selectFrom('storage_uploads').selectAll().where('upload_id', '=', uploadId).executeTakeFirst()) ??
  null;

/**
 * Raises the durable byte count from `expected`; false when the session moved on meanwhile (another
 * request or instance wrote first), so the caller never overwrites a count it did not read.
 */
export async function recordReceived(
  db: Kysely<Database>,
  uploadId: string,
  expected: number,
  received: number,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('storage_uploads')
    .set({ received, updated_at: now })
    .where('upload_id', '=', uploadId)
    .where('status', '=', 'active')
    .where('received', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks an active session final with its object resource; false if it was not active any more. */
export async function markFinal(
  db: Kysely<Database>,
  uploadId: string,
  resource: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('storage_uploads')
    .set({ status: 'final', final_resource: resource, updated_at: now })
    .where('upload_id', '=', uploadId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markCancelled(db: Kysely<Database>, uploadId: string, now: string): Promise<void> {
  await db
    .updateTable('storage_uploads')
    .set({ status: 'cancelled', updated_at: now })
    .where('upload_id', '=', uploadId)
    .where('status', '=', 'active')
    .execute();
}

/** Sessions (of any status) started before `cutoff`, oldest first. */
export async function findExpiredUploads(db: Kysely<Database>, cutoff: string, limit: number) {
  return db
    .selectFrom('storage_uploads')
    .select('upload_id')
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** How many unfinished sessions a user started since `cutoff` (the expired ones are dead). */
export async function countOpenUploads(
  db: Kysely<Database>,
  ownerUid: string,
  cutoff: string,
): Promise<number> {
  const row = await db
    .selectFrom('storage_uploads')
    .select(sql<number>`count(*)`.as('count'))
    .where('owner_uid', '=', ownerUid)
    .where('status', '=', 'active')
    .where('created_at', '>=', cutoff)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function deleteUpload(db: Kysely<Database>, uploadId: string): Promise<void> {
  await db.deleteFrom('storage_uploads').where('upload_id', '=', uploadId).execute();
}

/** Which of `uploadIds` still have a session row (of any status). */
export async function existingUploadIds(db: Kysely<Database>, uploadIds: string[]): Promise<Set<string>> {
  if (uploadIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('storage_uploads')
    .select('upload_id')
    .where('upload_id', 'in', uploadIds)
    .execute();
  return new Set(rows.map((row) => row.upload_id));
}

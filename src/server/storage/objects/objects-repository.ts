import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DialectName } from '../../db/schema';
import type { Database, StorageObjectsTable } from '../../db/schema';

export type ObjectRow = Selectable<StorageObjectsTable>;
export type NewObjectRow = Insertable<StorageObjectsTable>;

export const findObject = async (db: Kysely<Database>, bucket: string, name: string) =>
  (await db
    .selectFrom('storage_objects')
    .selectAll()
    .where('bucket', '=', bucket)
    .where('name', '=', name)
    .executeTakeFirst()) ?? null;

/** Inserts or replaces the object; returns the blob key it replaced, if any, for deletion after commit. */
export async function upsertObject(db: Kysely<Database>, row: NewObjectRow): Promise<string | undefined> {
  const previous = await db
    .selectFrom('storage_objects')
    .select('blob_key')
    .where('bucket', '=', row.bucket)
    .where('name', '=', row.name)
    .executeTakeFirst();
  await db
    .insertInto('storage_objects')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['bucket', 'name']).doUpdateSet((eb) => ({
        generation: eb.ref('excluded.generation'),
        metageneration: eb.ref('excluded.metageneration'),
        size: eb.ref('excluded.size'),
        md5_hash: eb.ref('excluded.md5_hash'),
        content_type: eb.ref('excluded.content_type'),
        cache_control: eb.ref('excluded.cache_control'),
        content_disposition: eb.ref('excluded.content_disposition'),
        content_encoding: eb.ref('excluded.content_encoding'),
        content_language: eb.ref('excluded.content_language'),
        custom_metadata: eb.ref('excluded.custom_metadata'),
        download_tokens: eb.ref('excluded.download_tokens'),
        blob_key: eb.ref('excluded.blob_key'),
        owner_uid: eb.ref('excluded.owner_uid'),
        time_created: eb.ref('excluded.time_created'),
        updated: eb.ref('excluded.updated'),
      })),
    )
    .execute();
  return previous?.blob_key;
}

export async function updateObject(
  db: Kysely<Database>,
  bucket: string,
  name: string,
  changes: Updateable<StorageObjectsTable>,
): Promise<void> {
  await db
    .updateTable('storage_objects')
    .set(changes)
    .where('bucket', '=', bucket)
    .where('name', '=', name)
    .execute();
}

/** Deletes the row; returns its blob key (delete the bytes after commit), or undefined if there was none. */
export async function deleteObjectRow(
  db: Kysely<Database>,
  bucket: string,
  name: string,
): Promise<string | undefined> {
  const deleted = await db
    .deleteFrom('storage_objects')
    .where('bucket', '=', bucket)
    .where('name', '=', name)
    .returning('blob_key')
    .executeTakeFirst();
  return deleted?.blob_key;
}

/** Deletes the user's objects whose names start with `prefix`, but `keepName`; returns their blob keys. */
export async function deleteOwnedObjectRowsUnder(
  db: Kysely<Database>,
  object: { bucket: string; ownerUid: string; prefix: string; keepName: string | null },
): Promise<string[]> {
  let query = db
    .deleteFrom('storage_objects')
    .where('bucket', '=', object.bucket)
    .where('owner_uid', '=', object.ownerUid)
    .where('name', '>=', object.prefix)
    .where('name', '<', `${object.prefix}\uffff`);
  if (object.keepName !== null) query = query.where('name', '!=', object.keepName);
  const rows = await query.returning('blob_key').execute();
  return rows.map((row) => row.blob_key);
}

/** Deletes every object under `prefix` in `bucket`, whoever owns it; returns their blob keys. */
export async function deleteObjectRowsUnder(
  db: Kysely<Database>,
  object: { bucket: string; prefix: string },
): Promise<string[]> {
  const rows = await db
    .deleteFrom('storage_objects')
    .where('bucket', '=', object.bucket)
    .where('name', '>=', object.prefix)
    .where('name', '<', `${object.prefix}\uffff`)
    .returning('blob_key')
    .execute();
  return rows.map((row) => row.blob_key);
}

/**
 * Bytes a user holds, in one round trip: the sizes of every object they own (in every bucket), and the
 * declared sizes of their active resumable sessions started since `sessionsSince`, except
 * `exceptUploadId` (the session being finalized).
 */
export async function bytesHeldBy(
  db: Kysely<Database>,
  ownerUid: string,
  sessionsSince: string,
  exceptUploadId?: string,
): Promise<{ stored: number; reserved: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('storage_objects')
        .select(sql<number>`cast(coalesce(sum(size), 0) as bigint)`.as('total'))
        .where('owner_uid', '=', ownerUid)
        .as('stored'),
      eb
        .selectFrom('storage_uploads')
        .select(sql<number>`cast(coalesce(sum(declared_size), 0) as bigint)`.as('total'))
        .where('owner_uid', '=', ownerUid)
        .where('status', '=', 'active')
        .where('created_at', '>=', sessionsSince)
        .$if(exceptUploadId !== undefined, (query) => query.where('upload_id', '!=', exceptUploadId!))
        .as('reserved'),
    ])
    .executeTakeFirst();
  return { stored: Number(row?.stored ?? 0), reserved: Number(row?.reserved ?? 0) };
}

/**
 * Serialises a user's storage writes until the transaction ends, so two uploads cannot both pass the
 * quota check, and two writers of one name (always the same owner) replace each other cleanly. SQLite
 * already runs one write transaction at a time; PostgreSQL locks the owner's users row.
 */
export async function lockOwner(db: Kysely<Database>, dialect: DialectName, ownerUid: string): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('users').select('id').where('id', '=', ownerUid).forNoKeyUpdate().execute();
}

/**
 * Names in byte order from `from` on (inclusive, or strictly after with `exclusive`), `limit` at most.
 * The caller stops when names leave its prefix.
 */
export async function listNamesFrom(
  db: Kysely<Database>,
  bucket: string,
  from: { name: string; exclusive: boolean },
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('storage_objects')
    .select('name')
    .where('bucket', '=', bucket)
    .where('name', from.exclusive ? '>' : '>=', from.name)
    .orderBy('name')
    .limit(limit)
    .execute();
  return rows.map((row) => row.name);
}

/** Which of `keys` some object's row refers to. */
export async function referencedBlobKeys(db: Kysely<Database>, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('storage_objects')
    .select('blob_key')
    .where('blob_key', 'in', keys)
    .execute();
  return new Set(rows.map((row) => row.blob_key));
}

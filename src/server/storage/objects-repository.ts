import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, StorageObjectsTable } from '../db/schema';

export type ObjectRow = Selectable<StorageObjectsTable>;
export type NewObjectRow = Insertable<StorageObjectsTable>;

export const findObject = (db: Kysely<Database>, bucket: string, name: string) =>
  db
    .selectFrom('storage_objects')
    .selectAll()
    .where('bucket', '=', bucket)
    .where('name', '=', name)
    .executeTakeFirst();

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

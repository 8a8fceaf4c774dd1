import { openDatabase } from '../../src/server/db/database';
import { EMPTY_METADATA } from '../../src/server/storage/objects/object-metadata';
import { newObjectRow } from '../../src/server/storage/objects/object-presenter';
import type { Config } from '../../src/server/config/config';
import { putBytes } from '../../src/server/storage/stores/blob-store';
import { createBlobStore } from '../../src/server/storage/stores/create-blob-store';

const ROWS_PER_INSERT = 500;

/**
 * Stores `names` as objects of `ownerUid` straight into a server's database and blob store, in multi-row
 * inserts: for tests of listings far larger than a test should upload one request at a time. Every object
 * holds the same bytes (one blob). Nothing is published, and no quota is checked.
 */
export async function insertObjectsInBulk(
  server: { dataDir: string; databaseUrl?: string | undefined; config: Config },
  input: { bucket: string; ownerUid: string; names: readonly string[]; bytes: Uint8Array },
): Promise<void> {
  const store = await createBlobStore(server.config.blobStorage, server.dataDir);
  const blob = await putBytes(store.blobs, input.bytes).finally(() => store.close());
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    for (let offset = 0; offset < input.names.length; offset += ROWS_PER_INSERT) {
      const rows = input.names.slice(offset, offset + ROWS_PER_INSERT).map((name) => ({
        ...newObjectRow(input.bucket, name, blob, EMPTY_METADATA),
        owner_uid: input.ownerUid,
      }));
      await database.db.insertInto('storage_objects').values(rows).execute();
    }
  } finally {
    await database.close();
  }
}

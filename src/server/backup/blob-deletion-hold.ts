import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { BlobStore } from '../storage/stores/blob-store';
import { deletionHeld } from './backup-repository';

/**
 * The app's blob store, except that a blob is not deleted while an export holds deletions back: the
 * export's snapshot may still refer to it. Its row is already gone, so the orphan sweep deletes the bytes
 * once the hold has ended. An export commits its hold BEFORE its snapshot starts, and the app checks for a
 * hold AFTER committing the change that dropped the blob's row, so a blob that a snapshot refers to is
 * never deleted before the export has read it (docs/decisions/023-backup-and-upgrades.md).
 */
export function withExportDeletionHold(blobs: BlobStore, db: Kysely<Database>): BlobStore {
  return new Proxy(blobs, {
    get(target, property, receiver) {
      if (property === 'delete') {
        return async (key: string) => {
          if (await deletionHeld(db, new Date().toISOString())) return;
          await target.delete(key);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

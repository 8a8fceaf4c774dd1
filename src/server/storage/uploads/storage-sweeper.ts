import type { Kysely } from 'kysely';
import type { Logger } from '../../core/logger';
import type { Database } from '../../db/schema';
import type { KeyedMutex } from '../../core/keyed-mutex';
import type { BlobStore, StoredEntry } from '../stores/blob-store';
import { referencedBlobKeys } from '../objects/objects-repository';
import { deleteUpload, existingUploadIds, findExpiredUploads } from './uploads-repository';
import { uploadSessionCutoff } from './upload-rules';

/** Unreferenced bytes younger than this may still be on their way to a row; they are left alone. */
const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/** The ids of entries unchanged since `before`, in batches for one database query each. */
async function* oldEntries(entries: AsyncIterable<StoredEntry>, before: number): AsyncIterable<string[]> {
  let batch: string[] = [];
  for await (const entry of entries) {
    if (entry.changedAt >= before) continue;
    batch.push(entry.id);
    if (batch.length === SWEEP_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
/** Background clean-up of storage: expired upload sessions, and bytes nothing refers to. */
export class StorageSweeper {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      blobs: BlobStore;
      /** Shared with the resumable uploads, so a sweep never removes a part a chunk is being written to. */
      uploadLocks: KeyedMutex;
      uploadSessionTtlMs: number;
    },
  ) {}

  /**
   * Removes bytes nothing refers to: blobs without an object row, parts without a session row, and
   * staged bytes of writes that never finished. They are left by a crash between writing bytes and
   * committing (or after deleting) their row. Only what has not changed for ORPHAN_GRACE_MS goes: bytes
   * in flight have a row within milliseconds of appearing.
   */
  async sweepOrphans(now: number = Date.now()): Promise<{ blobs: number; parts: number; staging: number }> {
    const before = now - ORPHAN_GRACE_MS;
    const { blobs, db } = this.deps;
    const removed = { blobs: 0, parts: 0, staging: await blobs.removeStaleStaging(before) };
    for await (const batch of oldEntries(blobs.listBlobs(), before)) {
      const referenced = await referencedBlobKeys(db, batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await blobs.delete(key);
        removed.blobs += 1;
      }
    }
    for await (const batch of oldEntries(blobs.listParts(), before)) {
      const live = await existingUploadIds(db, batch);
      for (const uploadId of batch) {
        if (live.has(uploadId)) continue;
        await this.deps.uploadLocks.run(uploadId, () => blobs.deletePart(uploadId));
        removed.parts += 1;
      }
    }
    return removed;
  }

  /** Removes sessions (and their bytes) past their lifetime, finished or not; returns how many. */
  async sweepExpiredUploads(now: number = Date.now()): Promise<number> {
    const cutoff = uploadSessionCutoff(this.deps.uploadSessionTtlMs, now);
    let removed = 0;
    for (;;) {
      const expired = await findExpiredUploads(this.deps.db, cutoff, 100);
      for (const { upload_id: uploadId } of expired) {
        await this.deps.uploadLocks.run(uploadId, async () => {
          await this.deps.blobs.deletePart(uploadId);
          await deleteUpload(this.deps.db, uploadId);
        });
      }
      removed += expired.length;
      if (expired.length < 100) return removed;
    }
  }
}

/** How often the whole sweep runs: it lists every stored file, so hourly, not at every start. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** A sweep of objects another feature owns (unregistered attachment uploads), run on its own interval. */
export interface OwnedObjectsSweep {
  name: string;
  intervalMs: number;
  /** Returns how many objects it removed. */
  sweep(): Promise<number>;
}

/**
 * Runs the sweeps in the background: expired sessions at start, everything hourly; each owned-objects
 * sweep at start and on its interval. `stop` waits for sweeps in progress, so the database is never
 * closed under them.
 */
export function scheduleStorageSweeps(
  sweeper: StorageSweeper,
  log: Logger,
  ownedSweeps: readonly OwnedObjectsSweep[] = [],
): { start(): void; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();
  const ownedTimers: NodeJS.Timeout[] = [];
  const ownedRuns = new Map<OwnedObjectsSweep, Promise<void>>();
  const runOwned = (owned: OwnedObjectsSweep) => {
    // One run of a sweep at a time on this instance: a slow run is not overlapped by the next tick.
    if (ownedRuns.has(owned)) return;
    const run = owned
      .sweep()
      .then((removed) => {
        if (removed > 0) log.info({ removed }, `${owned.name} removed`);
      })
      .catch((error: unknown) => log.error({ err: error }, `${owned.name} failed`))
      .finally(() => ownedRuns.delete(owned));
    ownedRuns.set(owned, run);
  };
  const sweepUploads = () =>
    sweeper
      .sweepExpiredUploads()
      .catch((error: unknown) => log.error({ err: error }, 'upload session sweep failed'));
  const sweepAll = () => {
    sweeping = sweepUploads()
      .then(() => sweeper.sweepOrphans())
      .then((removed) => {
        if (removed.blobs + removed.parts + removed.staging > 0)
          log.info({ removed }, 'orphaned bytes removed');
      })
      .catch((error: unknown) => log.error({ err: error }, 'orphaned bytes sweep failed'));
  };
  return {
    start() {
      sweeping = sweepUploads();
      timer = setInterval(sweepAll, SWEEP_INTERVAL_MS).unref();
      for (const owned of ownedSweeps) {
        runOwned(owned);
        ownedTimers.push(setInterval(() => runOwned(owned), owned.intervalMs).unref());
      }
    },
    async stop() {
      clearInterval(timer);
      for (const ownedTimer of ownedTimers) clearInterval(ownedTimer);
      await sweeping;
      await Promise.all(ownedRuns.values());
    },
  };
}

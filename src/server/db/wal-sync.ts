import fsp from 'node:fs/promises';

/**
 * Group commit for SQLite in WAL mode: makes every commit made so far durable with one `fdatasync` of the
 * WAL, run on libuv's thread pool. With `synchronous = FULL` SQLite syncs the WAL inside each commit, on
 * the event loop (better-sqlite3 is synchronous): every write stalled every request for one disk flush.
 * Here the commit only writes the WAL (`synchronous = NORMAL`) and
 * the answer waits for the next sync; concurrent writers share one (docs/decisions/014-durability.md).
 */
export class WalSync {
  private running: Promise<void> | null = null;
  /** The serial of the running sync (syncs are numbered from 1 as they start). */
  private runningSerial = 0;
  private queued: Promise<void> | null = null;
  private started = 0;
  /** The serial of the last sync that completed: every commit made before it started is on disk. */
  private completed = 0;
  private handle: Promise<fsp.FileHandle> | null = null;

  constructor(private readonly walFile: string) {}

  /** Resolves once everything committed before the call is on disk. */
  sync(): Promise<void> {
    // The queued sync starts after the running one, so it covers every commit made before this call.
    if (this.queued) return this.queued;
    const running = this.running;
    if (!running) return this.start();
    // The running sync may have started before the caller's commit: wait for the next one.
    this.queued = running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /**
   * What a later `syncSince` needs to know: call it right after commits, at a point where the answers
   * that wait for them have not asked for their sync yet.
   */
  mark(): number {
    return this.started;
  }

  /**
   * Resolves once everything committed before `mark()` returned `mark` is on disk. A sync that started
   * after the mark covers those commits: it is shared, so live fan-out that waits here for a request's
   * commit adds no second `fdatasync` to the one that request's answer waits for.
   */
  syncSince(mark: number): Promise<void> {
    if (this.completed > mark) return Promise.resolve();
    if (this.running && this.runningSerial > mark) return this.running;
    return this.sync();
  }

  private start(): Promise<void> {
    this.started += 1;
    const serial = this.started;
    const running = this.syncOnce()
      .then(() => {
        this.completed = Math.max(this.completed, serial);
      })
      .finally(() => {
        if (this.running === running) this.running = null;
      });
    this.running = running;
    this.runningSerial = serial;
    return running;
  }

  private async syncOnce(): Promise<void> {
    // fsync flushes the file, whichever descriptor wrote it. One descriptor for the app's life: SQLite
    // removes the WAL only when its last connection closes, and the app's closes after `close()`.
    this.handle ??= fsp.open(this.walFile, 'r').catch((error: unknown) => {
      this.handle = null;
      throw error;
    });
    await (await this.handle).datasync();
  }

  /** Waits for a sync in progress, then closes the descriptor. */
  async close(): Promise<void> {
    await Promise.allSettled([this.queued, this.running]);
    const handle = this.handle;
    this.handle = null;
    await (await handle)?.close();
  }
}

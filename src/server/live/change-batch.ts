import { performance } from 'node:perf_hooks';
import type { Change } from '../db/change-bus';

/** What one flush of the hub takes: the changes since the last one, and what it must wait for or report. */
export interface ChangeBurst {
  changes: Change[];
  /** The change bus lost changes (its connection dropped): every group is re-evaluated. */
  resync: boolean;
  /** When the oldest of these changes arrived (for the fan-out latency metric). */
  receivedAt: number | undefined;
  /** Resolves once the commits of these changes are durable. */
  durable: (() => Promise<void>) | undefined;
}

/**
 * The changes that arrive while the hub's queue is busy, gathered into one burst: a burst of commits is
 * routed, re-evaluated and sent once, however many changes it holds, and only one flush is queued for it.
 */
export class ChangeBatch {
  private changes: Change[] = [];
  private resync = false;
  private receivedAt: number | undefined;
  private durable: (() => Promise<void>) | undefined;
  private flushQueued = false;

  /**
   * Changes are arriving: notes when the first of the burst came and takes the commit mark, the latest of
   * which covers the commits of every change pending so far (`markCommits`, as the hub was given it).
   */
  arriving(markCommits: (() => () => Promise<void>) | undefined): void {
    this.receivedAt ??= performance.now();
    this.durable = markCommits?.();
  }

  add(change: Change): void {
    this.changes.push(change);
  }

  resyncAll(): void {
    this.resync = true;
  }

  /** True once per burst: there is something to flush and no flush is queued yet (the caller queues it). */
  claimFlush(): boolean {
    if (this.flushQueued || !(this.resync || this.changes.length > 0)) return false;
    this.flushQueued = true;
    return true;
  }

  /** The burst, for the flush that was queued for it; what arrives from now on is the next burst. */
  take(): ChangeBurst {
    this.flushQueued = false;
    const burst = {
      changes: this.changes,
      resync: this.resync,
      receivedAt: this.receivedAt,
      durable: this.durable,
    };
    this.changes = [];
    this.resync = false;
    this.receivedAt = undefined;
    this.durable = undefined;
    return burst;
  }
}

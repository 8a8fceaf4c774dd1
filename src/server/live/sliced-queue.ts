import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * The queue runs at most this long before it lets the event loop serve other work (HTTP requests, socket
 * reads). On SQLite every query is synchronous, so without this one burst of changes over many query
 * groups would hold every other request until all of them were re-evaluated.
 */
const QUEUE_SLICE_MS = 5;

/**
 * The live hub's one serial queue: every task (a first snapshot, a flush of changes) runs after the one
 * before it, so subscribers see changes in commit order and never one older than their snapshot. It runs
 * in slices: a task that works long asks `yieldWhenSliceUsed` at its loop's steps, and nothing else of the
 * hub's runs while it waits, so order and snapshots stay exact.
 */
export class SlicedQueue {
  /** Tasks enqueued and not yet finished; a slice starts when the queue turns busy. */
  private queuedTasks = 0;
  private sliceStartedAt = 0;
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void) {}

  enqueue(task: () => Promise<void>): void {
    if (this.queuedTasks === 0) this.sliceStartedAt = performance.now();
    this.queuedTasks += 1;
    this.tail = this.tail
      .then(async () => {
        await this.yieldWhenSliceUsed();
        await task();
      })
      .catch(this.onError)
      .finally(() => {
        this.queuedTasks -= 1;
      });
  }

  /** The current slice is spent: a loop with many cheap steps asks this before awaiting the yield. */
  sliceUsed(): boolean {
    return performance.now() - this.sliceStartedAt >= QUEUE_SLICE_MS;
  }

  /** Lets the event loop run (timers, I/O, other requests) once the queue has worked for a slice. */
  async yieldWhenSliceUsed(): Promise<void> {
    if (!this.sliceUsed()) return;
    await nextTurn();
    this.sliceStartedAt = performance.now();
  }

  /** A new slice from now: after the queue waited for something that was not its work. */
  startSlice(): void {
    this.sliceStartedAt = performance.now();
  }
}

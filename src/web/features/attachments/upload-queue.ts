/**
 * Many files uploaded a few at a time: the queue starts at most `concurrency` uploads, and the next
 * waiting file starts as soon as one of them ends. Each file's row can be paused, resumed and cancelled,
 * also while it waits. A file refused before it starts (too big, not allowed, over quota) is never sent.
 *
 * Kept free of React and of the storage client, so it is tested with fake tasks; `useUploadQueue` binds it
 * to a component and the attachments panel to the storage client.
 */

/** What the queue needs from an upload in progress: the storage client's `UploadTask` has all of it. */
export interface QueueTask {
  on(
    event: 'state_changed',
    next: (snapshot: { bytesTransferred: number; totalBytes: number; state: string }) => unknown,
    error: (error: unknown) => unknown,
    complete: () => unknown,
  ): () => void;
  pause(): boolean;
  resume(): boolean;
  cancel(): boolean;
}

type QueueItemState =
  | 'waiting'
  | 'uploading'
  | 'paused'
  /** The bytes are stored; the step after the upload (e.g. registering the attachment) is under way. */
  | 'finishing'
  | 'done'
  | 'failed'
  | 'canceled';

export interface QueueItem {
  id: number;
  name: string;
  size: number;
  state: QueueItemState;
  /** Bytes the server holds so far. */
  transferred: number;
  /** Why the file failed or was refused; null otherwise. */
  error: string | null;
}

export interface UploadQueueOptions {
  /** Uploads running at once. */
  concurrency: number;
  /** A reason to refuse the file before anything is sent (too big, not allowed, over quota), or null. */
  check: (file: File, queued: readonly File[]) => string | null;
  /** Starts sending the file. */
  start: (file: File) => QueueTask;
  /** After the bytes are stored (register the attachment, for instance); a throw fails the file. */
  finish?: (file: File) => Promise<void>;
  /** The message shown for a failure of `start`'s task or of `finish`. */
  describeError: (error: unknown, file: File) => string;
  /** Called once when every file queued so far has ended (done, failed or canceled). */
  onSettled?: (items: readonly QueueItem[]) => void;
}

interface Entry {
  item: QueueItem;
  file: File;
  task: QueueTask | null;
  /** Paused while waiting: not started when its turn comes. */
  held: boolean;
}

const ENDED: readonly QueueItemState[] = ['done', 'failed', 'canceled'];

export function hasEnded(item: QueueItem): boolean {
  return ENDED.includes(item.state);
}

export class UploadQueue {
  private entries: Entry[] = [];
  private snapshot: readonly QueueItem[] = [];
  private listeners = new Set<() => void>();
  private nextId = 1;
  private settledReported = true;

  constructor(private readonly options: UploadQueueOptions) {}

  /** For useSyncExternalStore: the same array until something changes. */
  readonly getSnapshot = (): readonly QueueItem[] => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Queues the files (refusing those the check refuses) and starts as many as the limit allows. */
  add(files: readonly File[]): void {
    const accepted: File[] = [];
    for (const file of files) {
      const refusal = this.options.check(file, accepted);
      const entry: Entry = {
        item: {
          id: this.nextId++,
          name: file.name,
          size: file.size,
          state: refusal ? 'failed' : 'waiting',
          transferred: 0,
          error: refusal,
        },
        file,
        task: null,
        held: false,
      };
      if (!refusal) accepted.push(file);
      this.entries.push(entry);
    }
    if (accepted.length > 0) this.settledReported = false;
    this.changed();
    this.pump();
  }

  pause(id: number): void {
    const entry = this.find(id);
    if (!entry) return;
    if (entry.item.state === 'waiting') {
      entry.held = true;
      this.update(entry, { state: 'paused' });
    } else if (entry.item.state === 'uploading' && entry.task?.pause()) {
      // The task reports 'paused' once the request in flight has stopped.
    }
  }

  resume(id: number): void {
    const entry = this.find(id);
    if (!entry || entry.item.state !== 'paused') return;
    if (entry.task) {
      entry.task.resume();
    } else {
      entry.held = false;
      this.update(entry, { state: 'waiting' });
      this.pump();
    }
  }

  cancel(id: number): void {
    const entry = this.find(id);
    if (!entry || hasEnded(entry.item) || entry.item.state === 'finishing') return;
    if (entry.task) {
      entry.task.cancel();
    } else {
      this.end(entry, { state: 'canceled' });
    }
  }

  /** Takes ended rows off the list. */
  clearEnded(): void {
    this.entries = this.entries.filter((entry) => !hasEnded(entry.item));
    this.changed();
  }

  /** Cancels everything still going (the page is left). */
  cancelAll(): void {
    for (const entry of this.entries) this.cancel(entry.item.id);
  }

  private pump(): void {
    const active = this.entries.filter(
      (entry) => entry.task !== null && !hasEnded(entry.item) && entry.item.state !== 'finishing',
    ).length;
    let free = this.options.concurrency - active;
    for (const entry of this.entries) {
      if (free <= 0) break;
      if (entry.item.state !== 'waiting' || entry.held) continue;
      free -= 1;
      this.begin(entry);
    }
  }

  private begin(entry: Entry): void {
    let task: QueueTask;
    try {
      task = this.options.start(entry.file);
    } catch (error) {
      this.end(entry, { state: 'failed', error: this.options.describeError(error, entry.file) });
      return;
    }
    entry.task = task;
    this.update(entry, { state: 'uploading' });
    task.on(
      'state_changed',
      (snapshot) => {
        if (hasEnded(entry.item)) return;
        this.update(entry, {
          transferred: snapshot.bytesTransferred,
          state: snapshot.state === 'paused' ? 'paused' : 'uploading',
        });
      },
      (error) => {
        const canceled = isCanceled(error);
        this.end(entry, {
          state: canceled ? 'canceled' : 'failed',
          error: canceled ? null : this.options.describeError(error, entry.file),
        });
      },
      () => void this.complete(entry),
    );
  }

  private async complete(entry: Entry): Promise<void> {
    this.update(entry, { state: 'finishing', transferred: entry.item.size });
    // The next file need not wait for the registration.
    this.pump();
    try {
      await this.options.finish?.(entry.file);
      this.end(entry, { state: 'done' });
    } catch (error) {
      this.end(entry, { state: 'failed', error: this.options.describeError(error, entry.file) });
    }
  }

  private end(entry: Entry, patch: Partial<QueueItem>): void {
    this.update(entry, patch);
    this.pump();
    if (!this.settledReported && this.entries.every((candidate) => hasEnded(candidate.item))) {
      this.settledReported = true;
      this.options.onSettled?.(this.snapshot);
    }
  }

  private update(entry: Entry, patch: Partial<QueueItem>): void {
    entry.item = { ...entry.item, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snapshot = this.entries.map((entry) => entry.item);
    for (const listener of this.listeners) listener();
  }

  private find(id: number): Entry | undefined {
    return this.entries.find((entry) => entry.item.id === id);
  }
}

/** The storage client's cancel error (`storage/canceled`), without importing the client here. */
function isCanceled(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code: unknown }).code === 'storage/canceled'
  );
}

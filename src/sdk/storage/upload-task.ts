import {
  STORAGE_CHUNK_SIZE_CAP,
  STORAGE_CHUNK_SIZE_START,
  STORAGE_RESUMABLE_THRESHOLD,
} from '../../common/limits';
import type { FullMetadata, UploadMetadata } from './metadata';
import { withReference, type StorageReference } from './reference';
import { isRetryableFailure, sendRequest, type RequestInfo } from './send-request';
import {
  getMetadataRequest,
  multipartUploadRequest,
  queryResumableRequest,
  startResumableRequest,
  uploadChunkRequest,
  type ResumableStatus,
} from './protocol-requests';
import type { RequestTokens } from './service';
import { StorageError, storageErrors } from './storage-error';
import type { UploadBytes } from './upload-data';

/** What observers and `snapshot.state` show. */
export type TaskState = 'running' | 'paused' | 'success' | 'canceled' | 'error';

/**
 * The task's own states (docs/storage-protocol.md §6.3); pausing and canceling show as running until the
 * request in flight ends.
 */
type InternalState = 'running' | 'pausing' | 'paused' | 'canceling' | 'canceled' | 'error' | 'success';

const PUBLIC_STATE: Record<InternalState, TaskState> = {
  running: 'running',
  pausing: 'running',
  canceling: 'running',
  paused: 'paused',
  canceled: 'canceled',
  error: 'error',
  success: 'success',
};

export interface UploadTaskSnapshot {
  bytesTransferred: number;
  totalBytes: number;
  state: TaskState;
  /** The object's metadata once the upload succeeded; null before. */
  metadata: FullMetadata | null;
  task: UploadTask;
  ref: StorageReference;
}

export interface TaskObserver {
  next?: ((snapshot: UploadTaskSnapshot) => unknown) | null;
  error?: ((error: StorageError) => unknown) | null;
  complete?: (() => unknown) | null;
}

/** Runs an observer callback in a microtask; a callback that throws must not break the task. */
function callLater(callback: () => unknown): void {
  void Promise.resolve()
    .then(callback)
    .catch((error: unknown) => console.error('An upload task observer threw:', error));
}

/**
 * The first retry waits this long; each later one twice as long as the one before
 * (docs/storage-protocol.md §6.4).
 */
const MIN_SLEEP_MS = 1000;

/** Chunk sizes: start at 256 KiB, double after each accepted chunk while the double stays under 32 MiB. */
export function nextChunkSize(chunkSize: number): number {
  return chunkSize * 2 < STORAGE_CHUNK_SIZE_CAP ? chunkSize * 2 : chunkSize;
}

/** True when `uploadBytesResumable` uses the resumable protocol: strictly over the threshold. */
export function isResumableSize(size: number): boolean {
  return size > STORAGE_RESUMABLE_THRESHOLD;
}

/**
 * An upload in progress (`uploadBytesResumable`), with the behaviour of firebase/storage's UploadTask
 * (docs/storage-protocol.md#6-upload-task-behaviour): multipart up to 256 KiB, otherwise a resumable session sent in growing
 * chunks, resumed from the server's offset after a failure or a pause, and retried with a growing wait.
 * Awaitable: resolves with the final snapshot, rejects with a StorageError.
 *
 * Differences from firebase/storage, on purpose:
 * - pause() and cancel() abort the request in flight in Node too (fetch with an AbortController).
 * - A chunk that gets no answer (the connection dropped) is not re-sent blindly at the same offset: the
 *   task asks the server how much it holds (`query`) and goes on from there, as for a 5xx.
 * - cancel() on a paused task cancels it (firebase/storage returns false and leaves it paused, so the
 *   only way out was resume() then cancel(), which sends a request just to throw it away).
 * - A `query` reporting more bytes than the file has fails with `storage/server-file-wrong-size`.
 */
export class UploadTask implements PromiseLike<UploadTaskSnapshot> {
  private state: InternalState = 'running';
  private transferred = 0;
  private uploadUrl: string | undefined;
  private needToFetchStatus = false;
  private needToFetchMetadata = false;
  private chunkSize = STORAGE_CHUNK_SIZE_START;
  private sleepTime = 0;
  private readonly maxSleepTime: number;
  private readonly resumable: boolean;
  /** True from the moment a step starts resolving tokens until its request settles. */
  private busy = false;
  private inFlight: AbortController | undefined;
  private pendingSleep: AbortController | undefined;
  private metadata: FullMetadata | null = null;
  private error: StorageError | undefined;
  private observers: TaskObserver[] = [];
  private resolvePromise: ((snapshot: UploadTaskSnapshot) => void) | undefined;
  private rejectPromise: ((error: StorageError) => void) | undefined;
  private readonly promise: Promise<UploadTaskSnapshot>;

  constructor(
    private readonly reference: StorageReference,
    private readonly data: UploadBytes,
    private readonly uploadMetadata: UploadMetadata | undefined,
  ) {
    this.resumable = isResumableSize(data.size);
    this.maxSleepTime = reference.storage.maxUploadRetryTime;
    this.promise = new Promise((resolve, reject) => {
      this.resolvePromise = resolve;
      this.rejectPromise = reject;
    });
    // The promise is also reported through observers; an unawaited task must not be an unhandled rejection.
    this.promise.catch(() => undefined);
    this.start();
  }

  get snapshot(): UploadTaskSnapshot {
    return {
      bytesTransferred: this.transferred,
      totalBytes: this.data.size,
      state: PUBLIC_STATE[this.state],
      metadata: this.metadata,
      task: this,
      ref: this.reference,
    };
  }

  /**
   * Observes the task: `next` at once, on every progress change and on pause/resume; then `complete` or
   * `error`. Returns the function that stops observing.
   */
  on(
    event: 'state_changed',
    nextOrObserver?: TaskObserver | ((snapshot: UploadTaskSnapshot) => unknown) | null,
    error?: ((error: StorageError) => unknown) | null,
    complete?: (() => unknown) | null,
  ): () => void {
    if (event !== 'state_changed')
      throw storageErrors.invalidArgument(`Invalid event name '${String(event)}'.`);
    const observer: TaskObserver =
      typeof nextOrObserver === 'function' || nextOrObserver === null || nextOrObserver === undefined
        ? { next: nextOrObserver, error, complete }
        : nextOrObserver;
    this.observers.push(observer);
    this.notifyObserver(observer);
    return () => {
      this.observers = this.observers.filter((candidate) => candidate !== observer);
    };
  }

  /** Pauses a running task; true when it was running. An in-flight request is aborted. */
  pause(): boolean {
    const valid = this.state === 'running';
    if (valid) this.transition('pausing');
    return valid;
  }

  /** Resumes a paused (or pausing) task; true when it was one. */
  resume(): boolean {
    const valid = this.state === 'paused' || this.state === 'pausing';
    if (valid) this.transition('running');
    return valid;
  }

  /** Cancels a running, pausing or paused task; true when it was one. The task rejects with `canceled`. */
  cancel(): boolean {
    if (this.state === 'paused') {
      // Nothing is in flight while paused: straight to canceled (see the class comment).
      this.transition('canceled');
      return true;
    }
    const valid = this.state === 'running' || this.state === 'pausing';
    if (valid) this.transition('canceling');
    return valid;
  }

  then<R1 = UploadTaskSnapshot, R2 = never>(
    onFulfilled?: ((snapshot: UploadTaskSnapshot) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((error: StorageError) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.promise.then(onFulfilled, onRejected);
  }

  catch<R = never>(
    onRejected?: ((error: StorageError) => R | PromiseLike<R>) | null,
  ): Promise<UploadTaskSnapshot | R> {
    return this.promise.then(null, onRejected);
  }

  // ---- work loop -------------------------------------------------------------------------------

  private start(): void {
    if (this.state !== 'running' || this.busy || this.pendingSleep) return;
    if (!this.resumable) {
      this.perform(
        () => multipartUploadRequest(this.storage, this.location, this.data, this.uploadMetadata),
        (metadata) => {
          this.metadata = withReference(this.storage, metadata);
          this.updateProgress(this.data.size);
          this.transition('success');
        },
      );
    } else if (this.uploadUrl === undefined) {
      this.perform(
        () => startResumableRequest(this.storage, this.location, this.data, this.uploadMetadata),
        (url) => {
          this.uploadUrl = url;
          this.needToFetchStatus = false;
          this.completeTransitions();
        },
      );
    } else if (this.needToFetchStatus) {
      const url = this.uploadUrl;
      this.perform(
        () => queryResumableRequest(this.storage, this.location, url, this.data),
        (status) => {
          // The server's durable offset wins, even when it is behind what we sent (progress goes back).
          this.updateProgress(status.current);
          this.needToFetchStatus = false;
          if (status.finalized) this.needToFetchMetadata = true;
          this.completeTransitions();
        },
      );
    } else if (this.needToFetchMetadata) {
      this.perform(
        () => getMetadataRequest(this.storage, this.location),
        (metadata) => {
          this.metadata = withReference(this.storage, metadata);
          this.transition('success');
        },
        (error) => {
          if (error.is('canceled')) {
            this.completeTransitions();
          } else {
            this.fail(error);
          }
        },
      );
    } else {
      this.sleepThenUploadChunk();
    }
  }

  private sleepThenUploadChunk(): void {
    const sleeping = new AbortController();
    this.pendingSleep = sleeping;
    const wake = (): void => {
      // pause()/cancel() cleared it and already moved on.
      if (this.pendingSleep !== sleeping) return;
      this.pendingSleep = undefined;
      this.uploadChunk();
    };
    // An injected sleep that rejects still ends the wait.
    void this.storage.sleep(this.sleepTime, sleeping.signal).then(wake, wake);
  }

  private uploadChunk(): void {
    const url = this.uploadUrl ?? '';
    const offset = this.transferred;
    const chunkSize = this.chunkSize;
    this.perform(
      () => uploadChunkRequest(this.storage, this.location, url, this.data, offset, chunkSize),
      (status: ResumableStatus) => {
        this.chunkSize = nextChunkSize(this.chunkSize);
        this.updateProgress(status.current);
        if (status.finalized) {
          this.metadata = status.metadata && withReference(this.storage, status.metadata);
          this.transition('success');
        } else {
          this.completeTransitions();
        }
      },
      undefined,
      false,
    );
  }

  /**
   * One step: fresh tokens, then the request. When the tokens arrive after a pause() or cancel(), the
   * request is not sent and the task settles in paused or canceled.
   */
  private perform<T>(
    build: () => RequestInfo<T>,
    onSuccess: (value: T) => void,
    onError: (error: StorageError) => void = (error) => this.handleUploadError(error),
    retry = true,
  ): void {
    this.busy = true;
    void this.storage.resolveTokens().then(async (tokens: RequestTokens) => {
      if (this.state !== 'running') {
        this.busy = false;
        if (this.state === 'canceling') this.transition('canceled');
        else if (this.state === 'pausing') this.transition('paused');
        return;
      }
      const controller = new AbortController();
      this.inFlight = controller;
      let value: T;
      try {
        value = await sendRequest(this.storage, build(), tokens, { retry, signal: controller.signal });
      } catch (caught) {
        this.busy = false;
        this.inFlight = undefined;
        onError(caught instanceof StorageError ? caught : storageErrors.unknown());
        return;
      }
      this.busy = false;
      this.inFlight = undefined;
      onSuccess(value);
    });
  }

  /** docs/storage-protocol.md §6.4: start, query, chunk and multipart failures. */
  private handleUploadError(error: StorageError): void {
    this.chunkSize = STORAGE_CHUNK_SIZE_START;
    if (error.is('canceled')) {
      // Our own abort (pause/cancel): whatever the server got, ask it before going on.
      this.needToFetchStatus = true;
      this.completeTransitions();
      return;
    }
    if (isRetryableFailure(error)) {
      if (this.sleepTime > this.maxSleepTime) {
        this.fail(storageErrors.retryLimitExceeded());
        return;
      }
      this.sleepTime = Math.max(this.sleepTime * 2, MIN_SLEEP_MS);
      this.needToFetchStatus = true;
      this.completeTransitions();
      return;
    }
    this.fail(error);
  }

  private fail(error: StorageError): void {
    this.error = error;
    this.transition('error');
  }

  private updateProgress(transferred: number): void {
    const before = this.transferred;
    this.transferred = transferred;
    if (transferred !== before) this.notifyObservers();
  }

  private transition(state: InternalState): void {
    if (this.state === state) return;
    switch (state) {
      case 'pausing':
      case 'canceling':
        this.state = state;
        if (this.inFlight) {
          this.inFlight.abort();
        } else if (this.pendingSleep) {
          // Only waiting between chunks: nothing to abort, so the chunk multiplier is kept.
          this.pendingSleep.abort();
          this.pendingSleep = undefined;
          this.completeTransitions();
        }
        break;
      case 'running': {
        const wasPaused = this.state === 'paused';
        this.state = state;
        if (wasPaused) {
          this.notifyObservers();
          this.start();
        }
        break;
      }
      case 'canceled':
        this.error = storageErrors.canceled();
        this.state = state;
        this.notifyObservers();
        break;
      case 'paused':
      case 'error':
      case 'success':
        this.state = state;
        this.notifyObservers();
        break;
    }
  }

  private completeTransitions(): void {
    if (this.state === 'pausing') this.transition('paused');
    else if (this.state === 'canceling') this.transition('canceled');
    else if (this.state === 'running') this.start();
  }

  // ---- observers and the promise ---------------------------------------------------------------

  private notifyObservers(): void {
    this.settlePromise();
    for (const observer of [...this.observers]) this.notifyObserver(observer);
  }

  private settlePromise(): void {
    const resolve = this.resolvePromise;
    const reject = this.rejectPromise;
    if (!resolve || !reject) return;
    const state = PUBLIC_STATE[this.state];
    if (state === 'success') {
      const snapshot = this.snapshot;
      queueMicrotask(() => resolve(snapshot));
    } else if (state === 'canceled' || state === 'error') {
      const error = this.error ?? storageErrors.unknown();
      queueMicrotask(() => reject(error));
    } else {
      return;
    }
    this.resolvePromise = undefined;
    this.rejectPromise = undefined;
  }

  /** Observers are called asynchronously (a microtask), each with the snapshot of this moment. */
  private notifyObserver(observer: TaskObserver): void {
    const state = PUBLIC_STATE[this.state];
    if (state === 'running' || state === 'paused') {
      const snapshot = this.snapshot;
      if (observer.next) callLater(() => observer.next?.(snapshot));
    } else if (state === 'success') {
      if (observer.complete) callLater(() => observer.complete?.());
    } else {
      const error = this.error ?? storageErrors.unknown();
      if (observer.error) callLater(() => observer.error?.(error));
    }
  }

  private get storage() {
    return this.reference.storage;
  }

  private get location() {
    return this.reference.location;
  }
}

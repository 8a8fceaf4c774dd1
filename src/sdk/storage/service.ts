import { STORAGE_MAX_OPERATION_RETRY_MS, STORAGE_MAX_UPLOAD_RETRY_MS } from '../../common/limits';
import { storageErrorTexts } from '../../common/storage-errors';
import { realSleep, type RetryClock, type SleepFunction } from './backoff';
import { parseBucket } from './path';
import { storageErrors } from './storage-error';

type Awaitable<T> = T | Promise<T>;

/** Returns the current token, or null/undefined when there is none (signed out, no App Check). */
export type TokenProvider = () => Awaitable<string | null | undefined>;

export interface StorageOptions {
  /** Server origin, e.g. `http://127.0.0.1:3000`; empty means the page's origin in browsers. */
  baseUrl?: string;
  /** Default bucket: a name or `gs://name`. Without one, `ref(storage)` throws `storage/no-default-bucket`. */
  bucket?: string | null;
  /** The user's id token, sent as `Authorization: Firebase <token>`; fetched before every request. */
  getToken?: TokenProvider;
  /** An App Check token, sent as `X-Firebase-AppCheck`; fetched before every request. */
  getAppCheckToken?: TokenProvider;
  /** Cap on retries of one operation (ms, default 120000). */
  maxOperationRetryTime?: number;
  /** Cap on retries of one upload request, and of an upload task's chunk retries (ms, default 600000). */
  maxUploadRetryTime?: number;
  /** Waits between retries and before chunks; tests inject a fast or fake one. */
  sleep?: SleepFunction;
  now?: () => number;
  random?: () => number;
  fetch?: typeof fetch;
}

export interface RequestTokens {
  authToken: string | null;
  appCheckToken: string | null;
}

/** The SDK's version header value (the Firebase SDK sends `webjs/<version>`). */
export const STORAGE_VERSION_HEADER = 'webjs/dojo';

function validateRetryTime(time: number): number {
  if (!(time >= 0)) throw storageErrors.invalidArgument(storageErrorTexts.retryTimeNegative);
  return time;
}

async function readToken(provider: TokenProvider | undefined): Promise<string | null> {
  if (!provider) return null;
  try {
    const token = await provider();
    return token ? token : null;
  } catch {
    // No token is the same as signed out: the server answers 401 and the caller sees
    // storage/unauthenticated, rather than an auth-layer error leaking out of a storage call.
    return null;
  }
}

/** A storage service instance: where to send requests, with which tokens, and how long to retry. */
export class Storage implements RetryClock {
  readonly baseUrl: string;
  /** The default bucket; null when none was configured. */
  readonly bucket: string | null;
  /** Replaceable (tests): waits between retries and before chunks. */
  sleep: SleepFunction;
  now: () => number;
  random: () => number;
  readonly fetch: typeof fetch;
  private readonly getToken: TokenProvider | undefined;
  private readonly getAppCheckToken: TokenProvider | undefined;
  private operationRetryTime = STORAGE_MAX_OPERATION_RETRY_MS;
  private uploadRetryTime = STORAGE_MAX_UPLOAD_RETRY_MS;

  constructor(options: StorageOptions = {}) {
    const origin = options.baseUrl || (typeof location === 'undefined' ? '' : location.origin);
    this.baseUrl = origin.replace(/\/+$/, '');
    this.bucket = options.bucket ? parseBucket(options.bucket) : null;
    this.getToken = options.getToken;
    this.getAppCheckToken = options.getAppCheckToken;
    if (options.maxOperationRetryTime !== undefined)
      this.maxOperationRetryTime = options.maxOperationRetryTime;
    if (options.maxUploadRetryTime !== undefined) this.maxUploadRetryTime = options.maxUploadRetryTime;
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => Date.now());
    this.random = options.random ?? Math.random;
    const fetchImplementation = options.fetch;
    this.fetch = fetchImplementation ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Ms an operation (metadata, list, delete, download URL) keeps retrying; ≥ 0. */
  get maxOperationRetryTime(): number {
    return this.operationRetryTime;
  }

  set maxOperationRetryTime(time: number) {
    this.operationRetryTime = validateRetryTime(time);
  }

  /** Ms an upload request keeps retrying, and the bound on an upload task's chunk back-off; ≥ 0. */
  get maxUploadRetryTime(): number {
    return this.uploadRetryTime;
  }

  set maxUploadRetryTime(time: number) {
    this.uploadRetryTime = validateRetryTime(time);
  }

  /** Both tokens, fresh for each request; never rejects. */
  async resolveTokens(): Promise<RequestTokens> {
    const [authToken, appCheckToken] = await Promise.all([
      readToken(this.getToken),
      readToken(this.getAppCheckToken),
    ]);
    return { authToken, appCheckToken };
  }
}

export function createStorage(options: StorageOptions = {}): Storage {
  return new Storage(options);
}

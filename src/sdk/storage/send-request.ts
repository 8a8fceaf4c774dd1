import { isRetryStatus, retryWithBackoff, type AttemptOutcome } from './backoff';
import type { RequestTokens, Storage } from './service';
import { STORAGE_VERSION_HEADER } from './service';
import type { StorageError } from './storage-error';
import { storageErrors } from './storage-error';
import type { BodyPart } from './upload-data';

/** An HTTP answer, body read in full. */
export interface HttpAnswer {
  status: number;
  /** The HTTP reason phrase (`''` over HTTP/2); becomes the error's `serverResponse`. */
  statusText: string;
  headers: Headers;
  text: string;
}

/** One storage call: what to send and how to read the answer. */
export interface RequestInfo<T> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: BodyPart | string | undefined;
  /** Statuses that count as success; default 200 only. */
  successCodes?: number[];
  /** The global retry cap for this call (ms). */
  timeoutMs: number;
  /** Reads a success answer; throws a StorageError when it is malformed. */
  handler: (answer: HttpAnswer) => T;
  /** Maps a non-success answer (after retries) to the error the caller sees. */
  errorHandler: (answer: HttpAnswer, error: StorageError) => StorageError;
}

export interface SendOptions {
  /**
   * `true` (default): network failures and 5xx/408/429 are retried with back-off
   * (docs/storage-protocol.md §7).
   * `false`: one attempt; those failures reject at once and `isRetryableFailure` says so (the upload
   * task retries chunks itself, from the offset the server reports, docs/storage-protocol.md §6.4).
   */
  retry?: boolean;
  signal?: AbortSignal | undefined;
}

const networkFailures = new WeakSet<StorageError>();

/** True for errors the upload task retries: no answer at all, or a 5xx/408/429 answer. */
export function isRetryableFailure(error: StorageError): boolean {
  return networkFailures.has(error) || isRetryStatus(error.status);
}

function networkFailure(): StorageError {
  const error = storageErrors.unknown();
  networkFailures.add(error);
  return error;
}

/** The standard headers (docs/storage-protocol.md §1.3), after the per-call ones. */
function requestHeaders(info: RequestInfo<unknown>, tokens: RequestTokens): Record<string, string> {
  const headers = { ...info.headers };
  if (tokens.authToken) headers.Authorization = `Firebase ${tokens.authToken}`;
  headers['X-Firebase-Storage-Version'] = STORAGE_VERSION_HEADER;
  if (tokens.appCheckToken !== null) headers['X-Firebase-AppCheck'] = tokens.appCheckToken;
  return headers;
}

/**
 * Fetch options for a request that carries upload bytes. Without them Node's fetch (undici) tees the body
 * stream of every request in case a redirect must send it again, copying each chunk once more on top of
 * the copy the Fetch standard makes of a byte body: a resumable upload's client then spends about twice
 * the CPU of a plain `node:http` request per byte (docs/decisions/032-upload-throughput.md). The
 * storage protocol never redirects, and `window: null` is the standard's only allowed value (browsers
 * accept it and change nothing).
 */
const UNCLONED_BODY = { redirect: 'error', window: null } as const satisfies RequestInit;

const isBytes = (body: RequestInfo<unknown>['body']): boolean =>
  body !== undefined && typeof body !== 'string';

type AttemptResult = { kind: 'answer'; answer: HttpAnswer } | { kind: 'network' } | { kind: 'aborted' };

async function attemptOnce(
  storage: Storage,
  info: RequestInfo<unknown>,
  headers: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<AttemptResult> {
  if (signal?.aborted) return { kind: 'aborted' };
  try {
    const response = await storage.fetch(info.url, {
      method: info.method,
      headers,
      body: info.body as BodyInit | undefined,
      signal,
      ...(isBytes(info.body) ? UNCLONED_BODY : {}),
    });
    const text = await response.text();
    return {
      kind: 'answer',
      answer: { status: response.status, statusText: response.statusText, headers: response.headers, text },
    };
  } catch {
    return signal?.aborted ? { kind: 'aborted' } : { kind: 'network' };
  }
}

function settle<T>(info: RequestInfo<T>, answer: HttpAnswer): T {
  const successCodes = info.successCodes ?? [200];
  if (successCodes.includes(answer.status)) return info.handler(answer);
  const error = storageErrors.unknown();
  error.serverResponse = answer.statusText;
  throw info.errorHandler(answer, error);
}

/** Sends one storage call with the given tokens; rejects with a StorageError. */
export async function sendRequest<T>(
  storage: Storage,
  info: RequestInfo<T>,
  tokens: RequestTokens,
  options: SendOptions = {},
): Promise<T> {
  const { retry = true, signal } = options;
  const headers = requestHeaders(info as RequestInfo<unknown>, tokens);

  if (!retry) {
    const result = await attemptOnce(storage, info as RequestInfo<unknown>, headers, signal);
    if (result.kind === 'aborted') throw storageErrors.canceled();
    if (result.kind === 'network') throw networkFailure();
    return settle(info, result.answer);
  }

  const answer = await retryWithBackoff<HttpAnswer>(
    async (): Promise<AttemptOutcome<HttpAnswer>> => {
      const result = await attemptOnce(storage, info as RequestInfo<unknown>, headers, signal);
      if (result.kind === 'aborted') throw storageErrors.canceled();
      if (result.kind === 'network' || isRetryStatus(result.answer.status)) return { retryable: true };
      return { retryable: false, value: result.answer };
    },
    { timeoutMs: info.timeoutMs, clock: storage, signal },
  );
  return settle(info, answer);
}

/** Resolves fresh tokens, then sends. */
export async function runRequest<T>(
  storage: Storage,
  info: RequestInfo<T>,
  options?: SendOptions,
): Promise<T> {
  const tokens = await storage.resolveTokens();
  return sendRequest(storage, info, tokens, options);
}

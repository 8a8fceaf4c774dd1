import { APP_CHECK_INVALID_PHRASE } from '../../common/storage-errors';
import {
  jsonObjectOrNull,
  metadataFromResource,
  uploadMetadataJson,
  writableJson,
  type FullMetadata,
  type SettableMetadata,
  type UploadMetadata,
} from './metadata';
import { makeBoundary, multipartBody } from './multipart';
import type { Location } from './path';
import type { HttpAnswer, RequestInfo } from './send-request';
import type { Storage } from './service';
import type { StorageError } from './storage-error';
import { storageErrors } from './storage-error';
import type { UploadBytes } from './upload-data';

type ErrorHandler = RequestInfo<unknown>['errorHandler'];

/**
 * docs/storage-protocol.md §8.2 for every call: 401 (App Check or user), 402, 403; anything else stays
 * `unknown`.
 */
function sharedErrorHandler(location: Location): ErrorHandler {
  return (answer, error) => {
    let mapped: StorageError;
    if (answer.status === 401) {
      mapped = answer.statusText.includes(APP_CHECK_INVALID_PHRASE)
        ? storageErrors.unauthorizedApp()
        : storageErrors.unauthenticated();
    } else if (answer.status === 402) {
      mapped = storageErrors.quotaExceeded(location.bucket);
    } else if (answer.status === 403) {
      mapped = storageErrors.unauthorized(location.path);
    } else {
      mapped = error;
    }
    mapped.status = answer.status;
    mapped.serverResponse = error.serverResponse;
    return mapped;
  };
}

/**
 * docs/storage-protocol.md §8.2 for object calls: as shared, plus 404 → object-not-found (status 0, like
 * firebase/storage).
 */
function objectErrorHandler(location: Location): ErrorHandler {
  const shared = sharedErrorHandler(location);
  return (answer, error) => {
    let mapped = shared(answer, error);
    if (answer.status === 404) mapped = storageErrors.objectNotFound(location.path);
    mapped.serverResponse = error.serverResponse;
    return mapped;
  };
}

function handlerCheck(condition: boolean): asserts condition {
  if (!condition) throw storageErrors.unknown();
}

const enc = encodeURIComponent;

/** `?k=v&…` with every key and value percent-encoded, in insertion order (docs/storage-protocol.md §1.2). */
function queryString(params: Record<string, string>): string {
  const parts = Object.entries(params).map(([key, value]) => `${enc(key)}=${enc(value)}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function bucketUrl(storage: Storage, bucket: string): string {
  return `${storage.baseUrl}/v0/b/${enc(bucket)}/o`;
}

function objectUrl(storage: Storage, location: Location): string {
  return `${bucketUrl(storage, location.bucket)}/${enc(location.path)}`;
}

function parseMetadata(answer: HttpAnswer): FullMetadata {
  const resource = jsonObjectOrNull(answer.text);
  const metadata = resource && metadataFromResource(resource);
  handlerCheck(metadata !== null);
  return metadata;
}

export function getMetadataRequest(storage: Storage, location: Location): RequestInfo<FullMetadata> {
  return {
    method: 'GET',
    url: objectUrl(storage, location),
    headers: {},
    timeoutMs: storage.maxOperationRetryTime,
    handler: parseMetadata,
    errorHandler: objectErrorHandler(location),
  };
}

/** Same call as getMetadata (docs/storage-protocol.md §4.2); the first download token makes the URL. */
export function getDownloadUrlRequest(storage: Storage, location: Location): RequestInfo<string> {
  return {
    ...getMetadataRequest(storage, location),
    handler: (answer) => {
      const resource = jsonObjectOrNull(answer.text);
      handlerCheck(resource !== null);
      const tokens = resource.downloadTokens;
      const bucket = resource.bucket;
      const name = resource.name;
      if (typeof tokens !== 'string' || tokens.length === 0) throw storageErrors.noDownloadUrl();
      handlerCheck(typeof bucket === 'string' && typeof name === 'string');
      const token = tokens.split(',')[0] ?? '';
      const base = objectUrl(storage, { bucket, path: name });
      return `${base}${queryString({ alt: 'media', token })}`;
    },
  };
}

export function updateMetadataRequest(
  storage: Storage,
  location: Location,
  metadata: SettableMetadata,
): RequestInfo<FullMetadata> {
  return {
    method: 'PATCH',
    url: objectUrl(storage, location),
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: writableJson(metadata),
    timeoutMs: storage.maxOperationRetryTime,
    handler: parseMetadata,
    errorHandler: objectErrorHandler(location),
  };
}

export function deleteObjectRequest(storage: Storage, location: Location): RequestInfo<void> {
  return {
    method: 'DELETE',
    url: objectUrl(storage, location),
    headers: {},
    successCodes: [200, 204],
    timeoutMs: storage.maxOperationRetryTime,
    handler: () => undefined,
    errorHandler: objectErrorHandler(location),
  };
}

/** One page of a listing: names are full paths; prefixes end in one `/`. */
export interface ListPage {
  prefixes: string[];
  items: string[];
  nextPageToken: string | undefined;
}

export function listRequest(
  storage: Storage,
  location: Location,
  pageToken: string | undefined,
  maxResults: number | undefined,
): RequestInfo<ListPage> {
  const params: Record<string, string> = {
    prefix: location.path === '' ? '' : `${location.path}/`,
    delimiter: '/',
  };
  if (pageToken) params.pageToken = pageToken;
  if (maxResults) params.maxResults = String(maxResults);
  return {
    method: 'GET',
    url: `${bucketUrl(storage, location.bucket)}${queryString(params)}`,
    headers: {},
    timeoutMs: storage.maxOperationRetryTime,
    handler: (answer) => {
      const resource = jsonObjectOrNull(answer.text);
      handlerCheck(resource !== null);
      const prefixes = Array.isArray(resource.prefixes) ? resource.prefixes : [];
      const items = Array.isArray(resource.items) ? resource.items : [];
      const token = resource.nextPageToken;
      return {
        prefixes: prefixes.filter((prefix): prefix is string => typeof prefix === 'string'),
        items: items
          .map((item: unknown) => (item as { name?: unknown } | null)?.name)
          .filter((name): name is string => typeof name === 'string'),
        nextPageToken: typeof token === 'string' ? token : undefined,
      };
    },
    errorHandler: sharedErrorHandler(location),
  };
}

export function multipartUploadRequest(
  storage: Storage,
  location: Location,
  data: UploadBytes,
  metadata: UploadMetadata | undefined,
): RequestInfo<FullMetadata> {
  const boundary = makeBoundary(storage.random);
  const { json, contentType } = uploadMetadataJson(location.path, metadata, data.type);
  return {
    method: 'POST',
    url: `${bucketUrl(storage, location.bucket)}${queryString({ name: location.path })}`,
    headers: {
      'X-Goog-Upload-Protocol': 'multipart',
      'Content-Type': `multipart/related; boundary=${boundary}`,
    },
    body: multipartBody(boundary, json, contentType, data.whole()),
    timeoutMs: storage.maxUploadRetryTime,
    handler: parseMetadata,
    errorHandler: sharedErrorHandler(location),
  };
}

function uploadStatus(answer: HttpAnswer, allowed: string[]): string {
  const status = answer.headers.get('X-Goog-Upload-Status');
  handlerCheck(status !== null && allowed.includes(status));
  return status;
}

/**
 * docs/storage-protocol.md §4.8a: opens a session; resolves with the absolute upload URL (a relative one
 * resolved).
 */
export function startResumableRequest(
  storage: Storage,
  location: Location,
  data: UploadBytes,
  metadata: UploadMetadata | undefined,
): RequestInfo<string> {
  const { json, contentType } = uploadMetadataJson(location.path, metadata, data.type);
  const url = `${bucketUrl(storage, location.bucket)}${queryString({ name: location.path })}`;
  return {
    method: 'POST',
    url,
    headers: {
      'X-Goog-Upload-Protocol': 'resumable',
      'X-Goog-Upload-Command': 'start',
      'X-Goog-Upload-Header-Content-Length': String(data.size),
      'X-Goog-Upload-Header-Content-Type': contentType,
      'Content-Type': 'application/json; charset=utf-8',
    },
    body: json,
    timeoutMs: storage.maxUploadRetryTime,
    handler: (answer) => {
      uploadStatus(answer, ['active']);
      const uploadUrl = answer.headers.get('X-Goog-Upload-URL');
      // A server without PUBLIC_URL sends a path: it is relative to the URL this request went to.
      handlerCheck(uploadUrl !== null && uploadUrl !== '' && URL.canParse(uploadUrl, url));
      return new URL(uploadUrl, url).href;
    },
    errorHandler: sharedErrorHandler(location),
  };
}

/** Where a resumable session stands. */
export interface ResumableStatus {
  /** Bytes the server holds. */
  current: number;
  total: number;
  finalized: boolean;
  metadata: FullMetadata | null;
}

/**
 * docs/storage-protocol.md §4.8d: how many bytes the server holds durably, and whether the session is final.
 */
export function queryResumableRequest(
  storage: Storage,
  location: Location,
  uploadUrl: string,
  data: UploadBytes,
): RequestInfo<ResumableStatus> {
  return {
    method: 'POST',
    url: uploadUrl,
    headers: { 'X-Goog-Upload-Command': 'query' },
    timeoutMs: storage.maxUploadRetryTime,
    handler: (answer) => {
      const status = uploadStatus(answer, ['active', 'final']);
      const received = answer.headers.get('X-Goog-Upload-Size-Received');
      handlerCheck(received !== null && /^\d+$/.test(received.trim()));
      const current = Number(received);
      // firebase/storage would go on from an offset past the end; we stop with the catalogue's error.
      if (current > data.size) throw storageErrors.serverFileWrongSize();
      return { current, total: data.size, finalized: status === 'final', metadata: null };
    },
    errorHandler: sharedErrorHandler(location),
  };
}

/**
 * `upload` / `upload, finalize` / (nothing left) `finalize`, as docs/storage-protocol.md §4.8b–c chooses it.
 */
function chunkCommand(bytesLeft: number, bytesToUpload: number): string {
  if (bytesToUpload === 0) return 'finalize';
  return bytesLeft === bytesToUpload ? 'upload, finalize' : 'upload';
}

/**
 * docs/storage-protocol.md §4.8b–c: the next chunk from `current`, at most `chunkSize` bytes; the last one
 * finalizes.
 */
export function uploadChunkRequest(
  storage: Storage,
  location: Location,
  uploadUrl: string,
  data: UploadBytes,
  current: number,
  chunkSize: number,
): RequestInfo<ResumableStatus> {
  const bytesLeft = data.size - current;
  const bytesToUpload = Math.min(bytesLeft, chunkSize);
  const end = current + bytesToUpload;
  return {
    method: 'POST',
    url: uploadUrl,
    headers: {
      'X-Goog-Upload-Command': chunkCommand(bytesLeft, bytesToUpload),
      'X-Goog-Upload-Offset': String(current),
    },
    body: data.slice(current, end),
    timeoutMs: storage.maxUploadRetryTime,
    handler: (answer) => {
      const status = uploadStatus(answer, ['active', 'final']);
      const finalized = status === 'final';
      return {
        current: end,
        total: data.size,
        finalized,
        metadata: finalized ? parseMetadata(answer) : null,
      };
    },
    errorHandler: sharedErrorHandler(location),
  };
}

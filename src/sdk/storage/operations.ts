import { STORAGE_LIST_MAX_RESULTS } from '../../common/limits';
import { storageErrorTexts } from '../../common/storage-errors';
import type { FullMetadata, SettableMetadata, UploadMetadata } from './metadata';
import { requireNonRoot, StorageReference, withReference } from './reference';
import { runRequest } from './send-request';
import {
  deleteObjectRequest,
  getDownloadUrlRequest,
  getMetadataRequest,
  listRequest,
  multipartUploadRequest,
  updateMetadataRequest,
} from './protocol-requests';
import { storageErrors } from './storage-error';
import { UploadBytes, type UploadData } from './upload-data';
import { UploadTask } from './upload-task';

export interface UploadResult {
  metadata: FullMetadata;
  ref: StorageReference;
}

export interface ListOptions {
  /** 1..1000; the server's default (1000) when absent. Items and prefixes count together. */
  maxResults?: number | null;
  /** `nextPageToken` of the previous page. */
  pageToken?: string | null;
}

export interface ListResult {
  /** Folders: references to the paths the delimiter folded names into. */
  prefixes: StorageReference[];
  items: StorageReference[];
  /** Present when there are more results. */
  nextPageToken?: string;
}

/**
 * Uploads in one multipart request, whatever the size (docs/storage-protocol.md §4.7). Retries until
 * maxUploadRetryTime.
 */
export async function uploadBytes(
  reference: StorageReference,
  data: UploadData,
  metadata?: UploadMetadata,
): Promise<UploadResult> {
  requireNonRoot(reference, 'uploadBytes');
  const bytes = new UploadBytes(data);
  const result = await runRequest(
    reference.storage,
    multipartUploadRequest(reference.storage, reference.location, bytes, metadata),
  );
  return { metadata: withReference(reference.storage, result), ref: reference };
}

/**
 * Starts an upload task: multipart up to 262144 bytes, resumable in chunks above
 * (docs/storage-protocol.md §6).
 */
export function uploadBytesResumable(
  reference: StorageReference,
  data: UploadData,
  metadata?: UploadMetadata,
): UploadTask {
  requireNonRoot(reference, 'uploadBytesResumable');
  return new UploadTask(reference, new UploadBytes(data), metadata);
}

export async function getMetadata(reference: StorageReference): Promise<FullMetadata> {
  requireNonRoot(reference, 'getMetadata');
  const metadata = await runRequest(
    reference.storage,
    getMetadataRequest(reference.storage, reference.location),
  );
  return withReference(reference.storage, metadata);
}

/** PATCHes the given fields; `null` removes a field or a custom key (docs/storage-protocol.md §4.4). */
export async function updateMetadata(
  reference: StorageReference,
  metadata: SettableMetadata,
): Promise<FullMetadata> {
  requireNonRoot(reference, 'updateMetadata');
  const updated = await runRequest(
    reference.storage,
    updateMetadataRequest(reference.storage, reference.location, metadata),
  );
  return withReference(reference.storage, updated);
}

/** A URL anyone holding it can read the object with, no sign-in needed (docs/storage-protocol.md §4.2). */
export async function getDownloadURL(reference: StorageReference): Promise<string> {
  requireNonRoot(reference, 'getDownloadURL');
  return runRequest(reference.storage, getDownloadUrlRequest(reference.storage, reference.location));
}

export async function deleteObject(reference: StorageReference): Promise<void> {
  requireNonRoot(reference, 'deleteObject');
  await runRequest(reference.storage, deleteObjectRequest(reference.storage, reference.location));
}

/** Checks `maxResults` as firebase/storage does, plus: it must be an integer. */
function validateMaxResults(maxResults: number): void {
  if (Number.isNaN(maxResults) || maxResults < 1) {
    throw storageErrors.invalidArgument(storageErrorTexts.maxResultsTooSmall);
  }
  if (maxResults > STORAGE_LIST_MAX_RESULTS) {
    throw storageErrors.invalidArgument(storageErrorTexts.maxResultsTooLarge);
  }
  if (!Number.isInteger(maxResults)) {
    throw storageErrors.invalidArgument(storageErrorTexts.maxResultsNotInteger);
  }
}

/**
 * One page of the folder `reference` (root allowed): items and sub-folders, by name
 * (docs/storage-protocol.md §4.6).
 */
export async function list(reference: StorageReference, options: ListOptions = {}): Promise<ListResult> {
  if (typeof options.maxResults === 'number') validateMaxResults(options.maxResults);
  const { storage, location } = reference;
  const page = await runRequest(
    storage,
    listRequest(storage, location, options.pageToken ?? undefined, options.maxResults ?? undefined),
  );
  const at = (path: string) => new StorageReference(storage, { bucket: location.bucket, path });
  const result: ListResult = {
    prefixes: page.prefixes.map((prefix) => at(prefix.replace(/\/$/, ''))),
    items: page.items.map(at),
  };
  if (page.nextPageToken !== undefined) result.nextPageToken = page.nextPageToken;
  return result;
}

/**
 * Every item and folder under `reference`, page by page. Stops at a missing token, and also at an
 * empty one (firebase/storage would loop for ever re-reading page 1).
 */
export async function listAll(reference: StorageReference): Promise<ListResult> {
  const all: ListResult = { prefixes: [], items: [] };
  let pageToken: string | undefined;
  do {
    const page = await list(reference, { pageToken });
    all.prefixes.push(...page.prefixes);
    all.items.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}

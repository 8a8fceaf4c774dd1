import {
  STORAGE_CUSTOM_METADATA_MAX_BYTES,
  WritableMetadataSchema,
  type WritableMetadata,
} from '../../../common';
import { requireHeaderSafeMetadata } from './metadata-rules';
import { storageErrors } from '../protocol/storage-errors';

/** The metadata columns of an object row that clients may set. */
export interface MetadataFields {
  contentType: string | null;
  cacheControl: string | null;
  contentDisposition: string | null;
  contentEncoding: string | null;
  contentLanguage: string | null;
  customMetadata: Record<string, string> | null;
}

/** Production keeps download tokens in this custom key; here tokens are always ours, never chosen. */
const DOWNLOAD_TOKENS_KEY = 'firebaseStorageDownloadTokens';

/** Parses a JSON body of writable metadata; an empty body is `{}`. 400 when it is not valid. */
export function parseWritableMetadata(body: Buffer): WritableMetadata {
  if (body.length === 0) return {};
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw storageErrors.invalidArgument('The metadata is not valid JSON.');
  }
  const parsed = WritableMetadataSchema.safeParse(json);
  if (!parsed.success) throw storageErrors.invalidArgument('The metadata is not valid.');
  requireHeaderSafeMetadata(parsed.data);
  return parsed.data;
}

/**
 * Applies a metadata write to the current fields (GCS patch semantics, docs/storage-protocol.md §4.4): an
 * absent key is left unchanged, `null` removes it, `metadata: null` clears all custom metadata, and inside
 * `metadata` a `null` deletes that key while other keys merge (values become strings). An upload starts from
 * nothing.
 */
export function applyMetadata(current: MetadataFields, write: WritableMetadata): MetadataFields {
  const next: MetadataFields = { ...current };
  const simple = [
    'contentType',
    'cacheControl',
    'contentDisposition',
    'contentEncoding',
    'contentLanguage',
  ] as const;
  for (const key of simple) {
    const value = write[key];
    if (value !== undefined) next[key] = value;
  }
  if (write.metadata === null) next.customMetadata = null;
  else if (write.metadata !== undefined) {
    // A Map, so keys such as `__proto__` stay plain data.
    const merged = new Map(Object.entries(current.customMetadata ?? {}));
    for (const [key, value] of Object.entries(write.metadata)) {
      if (key === DOWNLOAD_TOKENS_KEY) continue;
      if (value === null) merged.delete(key);
      else merged.set(key, String(value));
    }
    next.customMetadata = merged.size > 0 ? Object.fromEntries(merged) : null;
  }
  if (next.customMetadata && JSON.stringify(next.customMetadata).length > STORAGE_CUSTOM_METADATA_MAX_BYTES) {
    throw storageErrors.invalidArgument('The custom metadata is too large.');
  }
  return next;
}

export const EMPTY_METADATA: MetadataFields = {
  contentType: null,
  cacheControl: null,
  contentDisposition: null,
  contentEncoding: null,
  contentLanguage: null,
  customMetadata: null,
};

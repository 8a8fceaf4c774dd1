import { STORAGE_DEFAULT_CONTENT_TYPE, type ObjectResource } from '../../common/storage-objects';
import { lastComponent } from './path';
import type { StorageReference } from './reference';

/** Metadata a caller may set on an upload. */
export interface UploadMetadata {
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  contentType?: string;
  customMetadata?: Record<string, string>;
  md5Hash?: string;
}

/** A metadata change: an absent key is left alone, `null` removes the field (or the custom key). */
export interface SettableMetadata {
  cacheControl?: string | null;
  contentDisposition?: string | null;
  contentEncoding?: string | null;
  contentLanguage?: string | null;
  contentType?: string | null;
  customMetadata?: Record<string, string | null> | null;
}

/** An object's metadata as the client sees it (docs/storage-protocol.md#31-fields-the-server-returns). */
export interface FullMetadata {
  type: 'file';
  bucket: string;
  generation: string | undefined;
  metageneration: string | undefined;
  fullPath: string;
  name: string;
  size: number;
  timeCreated: string | undefined;
  updated: string | undefined;
  md5Hash: string | undefined;
  cacheControl: string | undefined;
  contentDisposition: string | undefined;
  contentEncoding: string | undefined;
  contentLanguage: string | undefined;
  contentType: string | undefined;
  customMetadata: Record<string, string> | undefined;
  /** Download tokens stay on the wire; `getDownloadURL` reads them. Always undefined here. */
  downloadTokens?: undefined;
  /** A reference to the object (not enumerable). */
  readonly ref?: StorageReference;
}

/**
 * An object resource as it arrives: the fields of the shared `ObjectResource`, each checked before use,
 * since the bytes come from the network.
 */
type ReceivedResource = { readonly [Field in keyof ObjectResource]?: unknown };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Parses a JSON body that must be an object (not an array); `null` otherwise. */
export function jsonObjectOrNull(text: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Maps an object resource to client metadata; `null` when the resource lacks a name or bucket. */
export function metadataFromResource(resource: ReceivedResource): FullMetadata | null {
  const fullPath = str(resource.name);
  const bucket = str(resource.bucket);
  if (fullPath === undefined || bucket === undefined) return null;
  const size = resource.size;
  const custom = resource.metadata;
  return {
    type: 'file',
    bucket,
    generation: str(resource.generation),
    metageneration: str(resource.metageneration),
    fullPath,
    name: lastComponent(fullPath),
    size: typeof size === 'string' || typeof size === 'number' ? Number(size) : Number.NaN,
    timeCreated: str(resource.timeCreated),
    updated: str(resource.updated),
    md5Hash: str(resource.md5Hash),
    cacheControl: str(resource.cacheControl),
    contentDisposition: str(resource.contentDisposition),
    contentEncoding: str(resource.contentEncoding),
    contentLanguage: str(resource.contentLanguage),
    contentType: str(resource.contentType),
    customMetadata:
      typeof custom === 'object' && custom !== null && !Array.isArray(custom)
        ? (custom as Record<string, string>)
        : undefined,
  };
}

/**
 * The writable JSON of docs/storage-protocol.md §3.2, always in this key order. `JSON.stringify` drops
 * undefined and keeps null, which is how a PATCH says "remove".
 */
export function writableJson(
  metadata: (UploadMetadata | SettableMetadata) & { fullPath?: string | undefined },
): string {
  const md5Hash = 'md5Hash' in metadata ? metadata.md5Hash : undefined;
  return JSON.stringify({
    name: metadata.fullPath,
    md5Hash,
    cacheControl: metadata.cacheControl,
    contentDisposition: metadata.contentDisposition,
    contentEncoding: metadata.contentEncoding,
    contentLanguage: metadata.contentLanguage,
    contentType: metadata.contentType,
    metadata: metadata.customMetadata,
  });
}

/** The metadata an upload sends: the caller's, plus `name` and a content type that is always set. */
export function uploadMetadataJson(
  fullPath: string,
  metadata: UploadMetadata | undefined,
  blobType: string,
): { json: string; contentType: string } {
  const contentType = metadata?.contentType || blobType || STORAGE_DEFAULT_CONTENT_TYPE;
  return { json: writableJson({ ...metadata, fullPath, contentType }), contentType };
}

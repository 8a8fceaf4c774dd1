import { z } from 'zod';
import {
  STORAGE_CUSTOM_METADATA_KEY_MAX_CHARS,
  STORAGE_CUSTOM_METADATA_VALUE_MAX_CHARS,
  STORAGE_METADATA_FIELD_MAX_CHARS,
} from './limits';

/**
 * The storage protocol's wire shapes (docs/storage-protocol.md#3-the-object-resource), defined once: the server
 * validates and answers with them, the OpenAPI document is generated from them, and the SDK reads them.
 */

/** The content type of an object stored without one (docs/storage-protocol.md#32-writable-metadata). */
export const STORAGE_DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/**
 * Raster image types: what a thumbnail may be (sniffed from its bytes) and the only uploads a download
 * shows inline. SVG is deliberately absent: it can carry script (docs/product-spec.md#flaw-13).
 */
export const RASTER_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
] as const;
export type RasterImageType = (typeof RASTER_IMAGE_TYPES)[number];

/** A resumable upload's id (`upload_id`): url-safe base64 text; the server mints 22 characters. */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** An object as the server answers it (docs/storage-protocol.md#31-fields-the-server-returns). */
export const ObjectResourceSchema = z.object({
  name: z.string(),
  bucket: z.string(),
  generation: z.string(),
  metageneration: z.string(),
  size: z.string().meta({ description: 'Decimal byte count, as a string' }),
  timeCreated: z.string(),
  updated: z.string(),
  md5Hash: z.string(),
  contentType: z.string(),
  contentEncoding: z.string(),
  contentDisposition: z.string(),
  cacheControl: z.string().optional(),
  contentLanguage: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  downloadTokens: z.string().meta({ description: 'Comma-separated download tokens' }),
  storageClass: z.string(),
  etag: z.string(),
});
export type ObjectResource = z.infer<typeof ObjectResourceSchema>;

const MetadataFieldSchema = z.string().max(STORAGE_METADATA_FIELD_MAX_CHARS).nullable().optional();
const CustomMetadataValueSchema = z.union([
  z.string().max(STORAGE_CUSTOM_METADATA_VALUE_MAX_CHARS),
  z.number(),
  z.boolean(),
  z.null(),
]);

/**
 * The writable metadata a client sends (docs/storage-protocol.md#32-writable-metadata) in upload bodies and
 * PATCH. Unknown keys are ignored, and so is `name` (the object's name comes from the URL). `null` removes a
 * field (or, inside `metadata`, a custom key).
 */
export const WritableMetadataSchema = z.object({
  name: z.unknown().optional(),
  md5Hash: z.string().max(64).nullable().optional(),
  cacheControl: MetadataFieldSchema,
  contentDisposition: MetadataFieldSchema,
  contentEncoding: MetadataFieldSchema,
  contentLanguage: MetadataFieldSchema,
  contentType: MetadataFieldSchema,
  metadata: z
    .record(z.string().min(1).max(STORAGE_CUSTOM_METADATA_KEY_MAX_CHARS), CustomMetadataValueSchema)
    .nullable()
    .optional(),
});
export type WritableMetadata = z.infer<typeof WritableMetadataSchema>;

import { randomUUID } from 'node:crypto';
import { STORAGE_DEFAULT_CONTENT_TYPE, type ObjectResource } from '../../../common';
import { nowIso } from '../../core/time';
import type { StoredBlob } from '../stores/blob-store';
import type { MetadataFields } from './object-metadata';
import type { ObjectRow } from './objects-repository';

/** Between an object's row and what the protocol shows of it. */

export function fieldsOf(row: ObjectRow): MetadataFields {
  return {
    contentType: row.content_type,
    cacheControl: row.cache_control,
    contentDisposition: row.content_disposition,
    contentEncoding: row.content_encoding,
    contentLanguage: row.content_language,
    customMetadata: row.custom_metadata ? (JSON.parse(row.custom_metadata) as Record<string, string>) : null,
  };
}

export function metadataColumns(fields: MetadataFields) {
  return {
    cache_control: fields.cacheControl,
    content_disposition: fields.contentDisposition,
    content_encoding: fields.contentEncoding,
    content_language: fields.contentLanguage,
    custom_metadata: fields.customMetadata ? JSON.stringify(fields.customMetadata) : null,
  };
}

/** A new version of an object: new generation, metageneration 1, a fresh download token. */
export function newObjectRow(
  bucket: string,
  name: string,
  blob: StoredBlob,
  fields: MetadataFields,
): ObjectRow {
  const now = nowIso();
  return {
    bucket,
    name,
    generation: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
    metageneration: 1,
    size: blob.size,
    md5_hash: blob.md5Base64,
    content_type: fields.contentType ?? STORAGE_DEFAULT_CONTENT_TYPE,
    ...metadataColumns(fields),
    download_tokens: randomUUID(),
    blob_key: blob.key,
    owner_uid: null,
    time_created: now,
    updated: now,
  };
}

/** The object resource of docs/storage-protocol.md#31-fields-the-server-returns. */
export function toObjectResource(row: ObjectRow): ObjectResource {
  const metadata = row.custom_metadata
    ? (JSON.parse(row.custom_metadata) as Record<string, string>)
    : undefined;
  return {
    name: row.name,
    bucket: row.bucket,
    generation: row.generation,
    metageneration: String(row.metageneration),
    size: String(row.size),
    timeCreated: row.time_created,
    updated: row.updated,
    md5Hash: row.md5_hash,
    contentType: row.content_type,
    contentEncoding: row.content_encoding ?? 'identity',
    contentDisposition: row.content_disposition ?? 'inline',
    ...(row.cache_control ? { cacheControl: row.cache_control } : {}),
    ...(row.content_language ? { contentLanguage: row.content_language } : {}),
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    downloadTokens: row.download_tokens,
    storageClass: 'STANDARD',
    etag: row.md5_hash,
  };
}

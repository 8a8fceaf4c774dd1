import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/database';
import type { BlobStore, StoredBlob } from './blob-store';
import { findObject, upsertObject, type ObjectRow } from './objects-repository';

export interface ObjectResource {
  name: string;
  bucket: string;
  generation: string;
  metageneration: string;
  size: string;
  timeCreated: string;
  updated: string;
  md5Hash: string;
  contentType: string;
  contentEncoding: string;
  contentDisposition: string;
  cacheControl?: string;
  contentLanguage?: string;
  metadata?: Record<string, string>;
  downloadTokens: string;
  storageClass: string;
  etag: string;
}

export interface NewObject {
  bucket: string;
  name: string;
  blob: StoredBlob;
  contentType: string;
  ownerUid: string | null;
}

/**
 * Objects: metadata rows in the database, bytes in a BlobStore. Writers stage bytes first, then record
 * the row inside their own transaction, so an object is visible only once its bytes are complete.
 */
export class StorageService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      blobs: BlobStore;
      bucket: string;
      publicUrl: string | undefined;
    },
  ) {}

  get defaultBucket(): string {
    return this.deps.bucket;
  }

  stage(bytes: Uint8Array): Promise<StoredBlob> {
    return this.deps.blobs.put(bytes);
  }

  /** Best effort: a leftover blob wastes space but is never visible. */
  async discard(blobKey: string | undefined): Promise<void> {
    if (blobKey) await this.deps.blobs.delete(blobKey).catch(() => undefined);
  }

  /** Records a staged blob as an object; returns the row and the blob it replaced (delete after commit). */
  async record(
    db: Kysely<Database>,
    object: NewObject,
  ): Promise<{ row: ObjectRow; replacedBlobKey?: string }> {
    const now = nowIso();
    const row: ObjectRow = {
      bucket: object.bucket,
      name: object.name,
      generation: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
      metageneration: 1,
      size: object.blob.size,
      md5_hash: object.blob.md5Base64,
      content_type: object.contentType,
      cache_control: null,
      content_disposition: null,
      content_encoding: null,
      content_language: null,
      custom_metadata: null,
      download_tokens: randomUUID(),
      blob_key: object.blob.key,
      owner_uid: object.ownerUid,
      time_created: now,
      updated: now,
    };
    const replacedBlobKey = await upsertObject(db, row);
    return { row, replacedBlobKey };
  }

  find(bucket: string, name: string): Promise<ObjectRow | undefined> {
    return findObject(this.deps.db, bucket, name);
  }

  readBytes(row: ObjectRow, range?: { start: number; end: number }) {
    return this.deps.blobs.read(row.blob_key, range);
  }

  /** The download URL (spec §7): absolute with PUBLIC_URL, otherwise relative to the app's origin. */
  downloadUrl(row: Pick<ObjectRow, 'bucket' | 'name' | 'download_tokens'>): string {
    const token = row.download_tokens.split(',')[0] ?? '';
    const path = `/v0/b/${encodeURIComponent(row.bucket)}/o/${encodeURIComponent(row.name)}`;
    return `${this.deps.publicUrl ?? ''}${path}?alt=media&token=${encodeURIComponent(token)}`;
  }
}

/** The object resource of STORAGE-PROTOCOL.md §3.1. */
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

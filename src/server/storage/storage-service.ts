import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/schema';
import { nowIso } from '../shared/time';
import type { Database, StorageUploadStatus } from '../db/schema';
import { newId } from '../shared/ids';
import {
  STORAGE_DEFAULT_CONTENT_TYPE as DEFAULT_CONTENT_TYPE,
  STORAGE_OPEN_UPLOADS_MAX,
  UPLOAD_ID_PATTERN,
  type ObjectResource,
  type WritableMetadata,
} from '../../common';
import type { BlobStore, StoredBlob, StoredEntry } from './blob-store';
import { limitBytes, skipBytes } from '../shared/byte-streams';
import { KeyedMutex } from '../shared/keyed-mutex';
import { readMultipartRelated } from './multipart-related';
import { applyMetadata, EMPTY_METADATA, parseWritableMetadata, type MetadataFields } from './object-metadata';
import { listPage, type ListPage, type ListRequest } from './object-listing';
import { isValidObjectName } from './object-names';
import {
  deleteObjectRow,
  bytesHeldBy,
  findObject,
  listNamesFrom,
  lockOwner,
  updateObject,
  upsertObject,
  type ObjectRow,
  referencedBlobKeys,
} from './objects-repository';
import { StorageProtocolError, storageErrors } from './storage-errors';
import { requireContentType } from './metadata-rules';
import { checkContent, maxBytesOf, requireWriteArea, SNIFF_BYTES, type WriteArea } from './storage-rules';
import {
  deleteUpload,
  findExpiredUploads,
  findUpload,
  insertUpload,
  markCancelled,
  markFinal,
  countOpenUploads,
  recordReceived,
  type UploadRow,
  existingUploadIds,
} from './uploads-repository';

export interface NewObject {
  bucket: string;
  name: string;
  blob: StoredBlob;
  contentType: string;
  ownerUid: string | null;
}

/** What a resumable upload command answers (docs/storage-protocol.md#48-resumable-upload, b–e). */
export interface UploadState {
  status: StorageUploadStatus;
  /** Bytes durably received. */
  received: number;
  /** The object resource, once final. */
  resource?: ObjectResource;
}

/** A resumable chunk may be at most 16 MiB from the SDK (§6.2); this leaves a wide margin. */
export const CHUNK_MAX_BYTES = 40 * 1024 * 1024;
/** Unreferenced bytes younger than this may still be on their way to a row; they are left alone. */
export const ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/** The ids of entries unchanged since `before`, in batches for one database query each. */
async function* oldEntries(entries: AsyncIterable<StoredEntry>, before: number): AsyncIterable<string[]> {
  let batch: string[] = [];
  for await (const entry of entries) {
    if (entry.changedAt >= before) continue;
    batch.push(entry.id);
    if (batch.length === SWEEP_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
const METADATA_MAX_BYTES = 64 * 1024;

interface StorageDeps {
  db: Kysely<Database>;
  dialect: DialectName;
  blobs: BlobStore;
  bucket: string;
  publicUrl: string | undefined;
  /** Bytes each user may keep (the sizes of every object they own, and what their open uploads declared). */
  quotaBytes: number;
  /** A resumable session is dead this long after its start, finished or not (§5.7: at least 10 minutes). */
  uploadSessionTtlMs: number;
}

/**
 * Objects: metadata rows in the database, bytes in a BlobStore. Writers stage bytes first, then record
 * the row inside their own transaction, so an object is visible only once its bytes are complete.
 * Rules (who writes where, what content) and the per-user quota are enforced here, not in routes.
 */
export class StorageService {
  private readonly uploadLocks = new KeyedMutex();

  constructor(private readonly deps: StorageDeps) {}

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
    const row = newObjectRow(object.bucket, object.name, object.blob, {
      ...EMPTY_METADATA,
      contentType: object.contentType,
    });
    row.owner_uid = object.ownerUid;
    const replacedBlobKey = await upsertObject(db, row);
    return { row, replacedBlobKey };
  }

  find(bucket: string, name: string): Promise<ObjectRow | undefined> {
    return findObject(this.deps.db, bucket, name);
  }

  readBytes(row: ObjectRow, range?: { start: number; end: number }) {
    return this.deps.blobs.read(row.blob_key, range);
  }

  /** The download URL (docs/storage-protocol.md#42-download-urls-and-tokens): absolute with PUBLIC_URL, otherwise relative to the app's origin. */
  downloadUrl(row: Pick<ObjectRow, 'bucket' | 'name' | 'download_tokens'>): string {
    const token = row.download_tokens.split(',')[0] ?? '';
    const path = `/v0/b/${encodeURIComponent(row.bucket)}/o/${encodeURIComponent(row.name)}`;
    return `${this.deps.publicUrl ?? ''}${path}?alt=media&token=${encodeURIComponent(token)}`;
  }

  /** Multipart upload (§4.7): metadata part, then the file part streamed to a new blob. */
  async uploadMultipart(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    boundary: string;
    body: AsyncIterable<Uint8Array>;
  }): Promise<ObjectResource> {
    const parts = await readMultipartRelated(input.body, input.boundary, METADATA_MAX_BYTES);
    const metadata = parseWritableMetadata(parts.metadata);
    const name = requireName(input.name ?? nameIn(metadata));
    return this.storeStream({
      area: requireWriteArea(input.viewerUid, name),
      bucket: input.bucket,
      name,
      metadata,
      declaredType: requireContentType(
        metadata.contentType ?? (parts.fileContentType || DEFAULT_CONTENT_TYPE),
      ),
      source: parts.file,
    });
  }

  /** A "media" upload: the raw body is the file (other clients; the web SDK never sends one). */
  async uploadMedia(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    contentType: string | undefined;
    body: AsyncIterable<Uint8Array>;
  }): Promise<ObjectResource> {
    const name = requireName(input.name);
    return this.storeStream({
      area: requireWriteArea(input.viewerUid, name),
      bucket: input.bucket,
      name,
      metadata: {},
      declaredType: requireContentType(input.contentType || DEFAULT_CONTENT_TYPE),
      source: input.body,
    });
  }

  /**
   * Resumable start (§4.8a): the path's owner only (403), within the rules' size (403), at most
   * STORAGE_OPEN_UPLOADS_MAX unfinished sessions per user (429), and the declared size reserved from the
   * quota until the session ends or expires (402), so bytes in parts never exceed it. The session lives in
   * the database and its bytes in a part named by its id.
   */
  async startResumable(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    metadata: Buffer;
    declaredSize: number;
    declaredType: string | undefined;
  }): Promise<{ uploadId: string; name: string }> {
    const metadata = parseWritableMetadata(input.metadata);
    const name = requireName(input.name ?? nameIn(metadata));
    const area = requireWriteArea(input.viewerUid, name);
    if (input.declaredSize > maxBytesOf(area)) throw storageErrors.noWritePermission();
    const contentType = requireContentType(
      metadata.contentType ?? (input.declaredType || DEFAULT_CONTENT_TYPE),
    );

    const uploadId = newId();
    const now = nowIso();
    const { name: _ignored, ...stored } = metadata;
    await this.deps.blobs.createPart(uploadId);
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        await lockOwner(trx, this.deps.dialect, area.ownerUid);
        if ((await countOpenUploads(trx, area.ownerUid, this.sessionCutoff())) >= STORAGE_OPEN_UPLOADS_MAX) {
          throw storageErrors.tooManyOpenUploads(STORAGE_OPEN_UPLOADS_MAX);
        }
        const remaining = await this.remainingQuota(trx, area, input.bucket, name);
        if (input.declaredSize > remaining) throw storageErrors.quotaExceeded(input.bucket);
        await insertUpload(trx, {
          upload_id: uploadId,
          bucket: input.bucket,
          name,
          owner_uid: input.viewerUid,
          metadata: JSON.stringify(stored),
          declared_size: input.declaredSize,
          content_type: contentType,
          received: 0,
          status: 'active',
          final_resource: null,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (error) {
      await this.deps.blobs.deletePart(uploadId).catch(() => undefined);
      throw error;
    }
    return { uploadId, name };
  }

  /**
   * A command on an upload URL (§4.8 b–e, §5): `query`, `upload` (offsets as §5.2), `upload, finalize`,
   * `finalize` and `cancel`. Only the user who started the session may continue it.
   */
  async continueResumable(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    uploadId: string;
    commands: Set<string>;
    offset: number | undefined;
    body: AsyncIterable<Uint8Array>;
  }): Promise<UploadState> {
    const session = await this.requireSession(input);
    if (input.commands.has('query')) return stateOf(session);
    return this.uploadLocks.run(input.uploadId, async () => {
      // Read again under the lock: a chunk that was in flight may have moved the count.
      let current = await this.requireSession(input);
      if (current.status === 'final') return stateOf(current);
      if (current.status === 'cancelled') {
        if (input.commands.has('cancel')) return stateOf(current);
        throw storageErrors.invalidArgument('The upload was cancelled.');
      }
      if (input.commands.has('cancel')) {
        await markCancelled(this.deps.db, current.upload_id, nowIso());
        await this.deps.blobs.deletePart(current.upload_id);
        return { status: 'cancelled', received: current.received };
      }
      if (input.commands.has('upload')) {
        if (input.offset === undefined) {
          throw storageErrors.invalidArgument('X-Goog-Upload-Offset is required to upload.');
        }
        current = await this.appendChunk(current, input.offset, input.body);
      }
      if (input.commands.has('finalize')) return this.finalize(current, input.viewerUid);
      return stateOf(current);
    });
  }

  /** PATCH (§4.4): merge, `null` removes, metageneration + 1. Owner only; `name` is ignored. */
  async updateMetadata(
    viewerUid: string,
    bucket: string,
    name: string,
    body: Buffer,
  ): Promise<ObjectResource> {
    const area = requireWriteArea(viewerUid, name);
    const write = parseWritableMetadata(body);
    return this.deps.db.transaction().execute(async (trx) => {
      await lockOwner(trx, this.deps.dialect, area.ownerUid);
      const row = await findObject(trx, bucket, name);
      if (!row) throw storageErrors.objectNotFound(name);
      const fields = applyMetadata(fieldsOf(row), write);
      const contentType = fields.contentType ?? DEFAULT_CONTENT_TYPE;
      // A thumbnail's type is the one its bytes proved; it cannot be renamed into something else.
      if (area.kind === 'thumbnail' && contentType !== row.content_type) {
        throw storageErrors.noWritePermission();
      }
      const changes = {
        ...metadataColumns(fields),
        content_type: contentType,
        metageneration: row.metageneration + 1,
        updated: nowIso(),
      };
      await updateObject(trx, bucket, name, changes);
      return toObjectResource({ ...row, ...changes });
    });
  }

  /** DELETE (§4.5): owner only (403), 404 when missing; the bytes go after the row is gone. */
  async deleteObject(viewerUid: string, bucket: string, name: string): Promise<void> {
    requireWriteArea(viewerUid, name);
    const blobKey = await deleteObjectRow(this.deps.db, bucket, name);
    if (!blobKey) throw storageErrors.objectNotFound(name);
    await this.discard(blobKey);
  }

  /** A page of a listing (§4.6). */
  async list(bucket: string, request: ListRequest): Promise<ListPage> {
    return listPage(request, (from, limit) => listNamesFrom(this.deps.db, bucket, from, limit));
  }

  /**
   * Removes bytes nothing refers to: blobs without an object row, parts without a session row, and
   * staged bytes of writes that never finished. They are left by a crash between writing bytes and
   * committing (or after deleting) their row. Only what has not changed for ORPHAN_GRACE_MS goes: bytes
   * in flight have a row within milliseconds of appearing.
   */
  async sweepOrphans(now: number = Date.now()): Promise<{ blobs: number; parts: number; staging: number }> {
    const before = now - ORPHAN_GRACE_MS;
    const { blobs, db } = this.deps;
    const removed = { blobs: 0, parts: 0, staging: await blobs.removeStaleStaging(before) };
    for await (const batch of oldEntries(blobs.listBlobs(), before)) {
      const referenced = await referencedBlobKeys(db, batch);
      for (const key of batch) {
        if (referenced.has(key)) continue;
        await blobs.delete(key);
        removed.blobs += 1;
      }
    }
    for await (const batch of oldEntries(blobs.listParts(), before)) {
      const live = await existingUploadIds(db, batch);
      for (const uploadId of batch) {
        if (live.has(uploadId)) continue;
        await this.uploadLocks.run(uploadId, () => blobs.deletePart(uploadId));
        removed.parts += 1;
      }
    }
    return removed;
  }

  /** Removes sessions (and their bytes) past their lifetime, finished or not; returns how many. */
  async sweepExpiredUploads(now: number = Date.now()): Promise<number> {
    const cutoff = this.sessionCutoff(now);
    let removed = 0;
    for (;;) {
      const expired = await findExpiredUploads(this.deps.db, cutoff, 100);
      for (const { upload_id: uploadId } of expired) {
        await this.uploadLocks.run(uploadId, async () => {
          await this.deps.blobs.deletePart(uploadId);
          await deleteUpload(this.deps.db, uploadId);
        });
      }
      removed += expired.length;
      if (expired.length < 100) return removed;
    }
  }

  /** Sessions started before this instant are dead (they answer 404 and reserve nothing). */
  private sessionCutoff(now: number = Date.now()): string {
    return new Date(now - this.deps.uploadSessionTtlMs).toISOString();
  }

  private async requireSession(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    uploadId: string;
  }): Promise<UploadRow> {
    const session = UPLOAD_ID_PATTERN.test(input.uploadId)
      ? await findUpload(this.deps.db, input.uploadId)
      : undefined;
    if (
      !session ||
      session.created_at < this.sessionCutoff() ||
      session.bucket !== input.bucket ||
      (input.name !== undefined && input.name !== session.name)
    ) {
      throw storageErrors.uploadNotFound();
    }
    if (session.owner_uid !== input.viewerUid) throw storageErrors.noWritePermission();
    return session;
  }

  /**
   * Appends a chunk at `offset` (§5.2): equal to the bytes received, it appends; below, the overlap is
   * dropped; above (a gap), nothing is written and 503 tells the client to query and resume. The count
   * is raised only after the bytes are synced.
   */
  private async appendChunk(session: UploadRow, offset: number, body: AsyncIterable<Uint8Array>) {
    const received = session.received;
    if (offset > received) {
      throw new StorageProtocolError(
        503,
        'The offset is past the bytes received; query the upload and resume.',
        {
          headers: { 'X-Goog-Upload-Status': 'active', 'X-Goog-Upload-Size-Received': String(received) },
        },
      );
    }
    const source = limitBytes(
      skipBytes(
        limitBytes(body, [{ max: CHUNK_MAX_BYTES, error: storageErrors.tooLarge }]),
        received - offset,
      ),
      [
        {
          max: session.declared_size - received,
          error: () => storageErrors.invalidArgument('The upload is larger than its declared size.'),
        },
      ],
    );
    const { written, error } = await this.deps.blobs.writePart(session.upload_id, received, source);
    // Our own refusals keep nothing of the chunk. A dropped connection keeps the synced prefix: it is
    // exactly the bytes from `received` on, and the client resumes after a query.
    if (error instanceof StorageProtocolError) throw error;
    const now = nowIso();
    if (
      written > 0 &&
      !(await recordReceived(this.deps.db, session.upload_id, received, received + written, now))
    ) {
      throw new StorageProtocolError(503, 'The upload changed meanwhile; query the upload and resume.');
    }
    if (error !== undefined) throw error;
    return { ...session, received: received + written, updated_at: now };
  }

  /**
   * Finalize (§5.3): all declared bytes must be there (400), the content must pass the rules (403 with
   * `X-Goog-Upload-Status: final`; the session ends), the quota must hold (402). Then the object and the
   * session's final state are written in one transaction.
   */
  private async finalize(session: UploadRow, viewerUid: string): Promise<UploadState> {
    const { upload_id: uploadId, declared_size: size } = session;
    if (session.received !== size) {
      throw storageErrors.invalidArgument(
        `The upload has ${session.received} of its ${size} bytes; it cannot be finalized yet.`,
      );
    }
    const area = requireWriteArea(viewerUid, session.name);
    let contentType: string;
    try {
      contentType = checkContent(
        area,
        {
          size,
          head: await this.deps.blobs.readPartHead(uploadId, SNIFF_BYTES),
          declaredType: session.content_type,
        },
        () => storageErrors.noWritePermission({ 'X-Goog-Upload-Status': 'final' }),
      );
    } catch (error) {
      await markCancelled(this.deps.db, uploadId, nowIso());
      await this.deps.blobs.deletePart(uploadId);
      throw error;
    }

    const metadata = JSON.parse(session.metadata) as WritableMetadata;
    const blob = await this.deps.blobs.commitPart(uploadId, size);
    let resource: ObjectResource;
    try {
      requireMd5(metadata.md5Hash, blob.md5Base64);
      const row = newObjectRow(session.bucket, session.name, blob, {
        ...applyMetadata(EMPTY_METADATA, metadata),
        contentType,
      });
      row.owner_uid = area.ownerUid;
      resource = toObjectResource(row);
      const finalResource = JSON.stringify(resource);
      await this.commitObject(
        area,
        row,
        async (trx) => {
          if (!(await markFinal(trx, uploadId, finalResource, row.updated))) throw new SessionMovedOn();
        },
        uploadId,
      );
    } catch (error) {
      await this.discard(blob.key);
      if (!(error instanceof SessionMovedOn)) throw error;
      // Another instance finalized it first: answer with its result.
      const latest = await findUpload(this.deps.db, uploadId);
      if (latest?.status === 'final') return stateOf(latest);
      throw new StorageProtocolError(503, 'The upload changed meanwhile; query the upload and resume.');
    }
    await this.deps.blobs.deletePart(uploadId).catch(() => undefined);
    return { status: 'final', received: size, resource };
  }

  /**
   * Streams an upload body into a new blob, stopping at the rules' size (403) or the quota (402), then
   * checks the content and records the object. The blob is removed if anything fails.
   */
  private async storeStream(input: {
    area: WriteArea;
    bucket: string;
    name: string;
    metadata: WritableMetadata;
    declaredType: string;
    source: AsyncIterable<Uint8Array>;
  }): Promise<ObjectResource> {
    const { area, bucket, name } = input;
    const remaining = await this.remainingQuota(this.deps.db, area, bucket, name);
    const limited = limitBytes(input.source, [
      { max: remaining, error: () => storageErrors.quotaExceeded(bucket) },
      { max: maxBytesOf(area), error: () => storageErrors.noWritePermission() },
    ]);
    const blob = await this.deps.blobs.write(limited, { headBytes: SNIFF_BYTES });
    try {
      const contentType = checkContent(area, {
        size: blob.size,
        head: blob.head,
        declaredType: input.declaredType,
      });
      requireMd5(input.metadata.md5Hash, blob.md5Base64);
      const row = newObjectRow(bucket, name, blob, {
        ...applyMetadata(EMPTY_METADATA, input.metadata),
        contentType,
      });
      row.owner_uid = area.ownerUid;
      await this.commitObject(area, row);
      return toObjectResource(row);
    } catch (error) {
      await this.discard(blob.key);
      throw error;
    }
  }

  /**
   * Upserts the object in one transaction with the quota check, under the owner's lock, so concurrent
   * writers of one name leave one complete version; the replaced blob is deleted after commit.
   */
  private async commitObject(
    area: WriteArea,
    row: ObjectRow,
    alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
    finishingUploadId?: string,
  ): Promise<void> {
    const replaced = await this.deps.db.transaction().execute(async (trx) => {
      await lockOwner(trx, this.deps.dialect, area.ownerUid);
      if (row.size > (await this.remainingQuota(trx, area, row.bucket, row.name, finishingUploadId))) {
        throw storageErrors.quotaExceeded(row.bucket);
      }
      const previous = await upsertObject(trx, row);
      await alsoInTransaction?.(trx);
      return previous;
    });
    if (replaced !== row.blob_key) await this.discard(replaced);
  }

  /**
   * Bytes the owner may still store at `name`: the quota less their objects and what their open sessions
   * reserve (but not `finishingUploadId`'s own reservation, which its object is about to replace). An
   * object it replaces at `name` frees its own size.
   */
  private async remainingQuota(
    db: Kysely<Database>,
    area: WriteArea,
    bucket: string,
    name: string,
    finishingUploadId?: string,
  ): Promise<number> {
    const held = await bytesHeldBy(db, area.ownerUid, this.sessionCutoff(), finishingUploadId);
    const existing = await findObject(db, bucket, name);
    const freed = existing?.owner_uid === area.ownerUid ? existing.size : 0;
    return Math.max(0, this.deps.quotaBytes - held.stored - held.reserved + freed);
  }
}

class SessionMovedOn extends Error {}

function requireName(name: string | undefined): string {
  if (name === undefined || !isValidObjectName(name)) throw storageErrors.invalidName();
  return name;
}

const nameIn = (metadata: WritableMetadata): string | undefined =>
  typeof metadata.name === 'string' ? metadata.name : undefined;

/** A client that sends md5Hash gets its bytes checked against it (GCS does the same). */
function requireMd5(expected: string | null | undefined, actual: string): void {
  if (expected && expected !== actual) {
    throw storageErrors.invalidArgument('The uploaded bytes do not match md5Hash.');
  }
}

function stateOf(session: UploadRow): UploadState {
  return {
    status: session.status,
    received: session.received,
    ...(session.final_resource ? { resource: JSON.parse(session.final_resource) as ObjectResource } : {}),
  };
}

function fieldsOf(row: ObjectRow): MetadataFields {
  return {
    contentType: row.content_type,
    cacheControl: row.cache_control,
    contentDisposition: row.content_disposition,
    contentEncoding: row.content_encoding,
    contentLanguage: row.content_language,
    customMetadata: row.custom_metadata ? (JSON.parse(row.custom_metadata) as Record<string, string>) : null,
  };
}

function metadataColumns(fields: MetadataFields) {
  return {
    cache_control: fields.cacheControl,
    content_disposition: fields.contentDisposition,
    content_encoding: fields.contentEncoding,
    content_language: fields.contentLanguage,
    custom_metadata: fields.customMetadata ? JSON.stringify(fields.customMetadata) : null,
  };
}

/** A new version of an object: new generation, metageneration 1, a fresh download token. */
function newObjectRow(bucket: string, name: string, blob: StoredBlob, fields: MetadataFields): ObjectRow {
  const now = nowIso();
  return {
    bucket,
    name,
    generation: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
    metageneration: 1,
    size: blob.size,
    md5_hash: blob.md5Base64,
    content_type: fields.contentType ?? DEFAULT_CONTENT_TYPE,
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

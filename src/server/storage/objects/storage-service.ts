import type { Kysely } from 'kysely';
import {
  STORAGE_DEFAULT_CONTENT_TYPE as DEFAULT_CONTENT_TYPE,
  type ObjectResource,
  type WritableMetadata,
} from '../../../common';
import type { Database, DialectName } from '../../db/schema';
import { limitBytes } from '../../core/byte-streams';
import { nowIso } from '../../core/time';
import { putBytes, type BlobStore, type StoredBlob } from '../stores/blob-store';
import { requireContentType } from './metadata-rules';
import { readMultipartRelated } from '../protocol/multipart-related';
import { listPage, type ListPage, type ListRequest } from './object-listing';
import { applyMetadata, EMPTY_METADATA, parseWritableMetadata } from './object-metadata';
import { fieldsOf, metadataColumns, newObjectRow, toObjectResource } from './object-presenter';
import {
  bytesHeldBy,
  deleteObjectRow,
  deleteObjectRowsUnder,
  deleteOwnedObjectRowsUnder,
  findObject,
  listNamesFrom,
  lockOwner,
  updateObject,
  upsertObject,
  type ObjectRow,
  referencedBlobKeys,
} from './objects-repository';
import { storageErrors } from '../protocol/storage-errors';
import { checkContent, maxBytesOf, requireWriteArea, SNIFF_BYTES, type WriteArea } from './storage-rules';
import { nameIn, requireMd5, requireName, uploadSessionCutoff } from '../uploads/upload-rules';

export interface NewObject {
  bucket: string;
  name: string;
  blob: StoredBlob;
  contentType: string;
  ownerUid: string | null;
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
  /**
   * A resumable session is dead this long after its start, finished or not (docs/storage-protocol.md §5.7: at
   * least 10 minutes).
   */
  uploadSessionTtlMs: number;
  /** The largest attachment (ATTACHMENT_MAX_BYTES, docs/decisions/073-attachments.md). */
  attachmentMaxBytes: number;
  /**
   * Whether attachments may be written to a project now (it exists and is open): the attachments feature
   * decides, above this folder, and the composition root wires it in.
   */
  attachmentProjectOpen: (projectId: string) => Promise<boolean>;
}

/**
 * Objects: metadata rows in the database, bytes in a BlobStore. Writers stage bytes first, then record
 * the row inside their own transaction, so an object is visible only once its bytes are complete.
 * Rules (who writes where, what content) and the per-user quota are enforced here, not in routes.
 */
export class StorageService {
  constructor(private readonly deps: StorageDeps) {}

  get defaultBucket(): string {
    return this.deps.bucket;
  }

  get attachmentMaxBytes(): number {
    return this.deps.attachmentMaxBytes;
  }

  get quotaBytes(): number {
    return this.deps.quotaBytes;
  }

  /**
   * The area the viewer may write `name` in, with the rules that need the database: an attachment's
   * project must be open. 403 when the rules refuse.
   */
  async writeArea(viewerUid: string, name: string): Promise<WriteArea> {
    const area = requireWriteArea(viewerUid, name, this.deps.attachmentMaxBytes);
    if (area.projectId !== undefined && !(await this.deps.attachmentProjectOpen(area.projectId))) {
      throw storageErrors.noWritePermission();
    }
    return area;
  }

  /** Bytes the user holds (objects and open uploads), for the limits shown before an upload. */
  async usedBytes(ownerUid: string): Promise<number> {
    const held = await bytesHeldBy(this.deps.db, ownerUid, uploadSessionCutoff(this.deps.uploadSessionTtlMs));
    return held.stored + held.reserved;
  }

  /**
   * Removes every object under `prefix` whoever owns it, rows then bytes: the server's own cleanup (a
   * deleted project's attachments), never a user's request. Best effort for the bytes, like `discard`.
   */
  async deleteAllUnder(prefix: string): Promise<void> {
    const blobKeys = await deleteObjectRowsUnder(this.deps.db, { bucket: this.deps.bucket, prefix });
    for (const key of blobKeys) await this.discard(key);
  }

  /** Removes one object by the server's decision (an attachment deleted through its API). */
  async deleteByServer(name: string): Promise<void> {
    const blobKey = await deleteObjectRow(this.deps.db, this.deps.bucket, name);
    if (blobKey) await this.discard(blobKey);
  }

  stage(bytes: Uint8Array): Promise<StoredBlob> {
    return putBytes(this.deps.blobs, bytes);
  }

  /** Best effort: a leftover blob wastes space but is never visible. */
  /** Whether an object row refers to the blob. */
  async isReferenced(blobKey: string): Promise<boolean> {
    return (await referencedBlobKeys(this.deps.db, [blobKey])).has(blobKey);
  }

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

  /**
   * Removes a user's profile thumbnails but `keepName` (all when null), rows then bytes: after a new
   * avatar is in place, or when the account is deleted. Best effort for the bytes, like `discard`.
   */
  async deleteThumbnails(ownerUid: string, keepName: string | null): Promise<void> {
    const blobKeys = await deleteOwnedObjectRowsUnder(this.deps.db, {
      bucket: this.deps.bucket,
      ownerUid,
      prefix: `thumbnails/${ownerUid}/`,
      keepName,
    });
    for (const key of blobKeys) await this.discard(key);
  }

  find(bucket: string, name: string): Promise<ObjectRow | null> {
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

  /**
   * Multipart upload (docs/storage-protocol.md §4.7): metadata part, then the file part streamed to a new
   * blob.
   */
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
      area: await this.writeArea(input.viewerUid, name),
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
      area: await this.writeArea(input.viewerUid, name),
      bucket: input.bucket,
      name,
      metadata: {},
      declaredType: requireContentType(input.contentType || DEFAULT_CONTENT_TYPE),
      source: input.body,
    });
  }

  /**
   * PATCH (docs/storage-protocol.md §4.4): merge, `null` removes, metageneration + 1. Owner only; `name` is
   * ignored.
   */
  async updateMetadata(
    viewerUid: string,
    bucket: string,
    name: string,
    body: Buffer,
  ): Promise<ObjectResource> {
    const area = requireWriteArea(viewerUid, name);
    // An attachment is written once; its type is the one sniffed when it was registered.
    if (area.kind === 'attachment') throw storageErrors.noWritePermission();
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

  /**
   * DELETE (docs/storage-protocol.md §4.5): owner only (403), 404 when missing; the bytes go after the row is
   * gone.
   */
  async deleteObject(viewerUid: string, bucket: string, name: string): Promise<void> {
    // Attachments are deleted through their own API (uploader, project creator or admin), never here.
    if (requireWriteArea(viewerUid, name).kind === 'attachment') throw storageErrors.noWritePermission();
    const blobKey = await deleteObjectRow(this.deps.db, bucket, name);
    if (!blobKey) throw storageErrors.objectNotFound(name);
    await this.discard(blobKey);
  }

  /** A page of a listing (docs/storage-protocol.md §4.6). */
  async list(bucket: string, request: ListRequest): Promise<ListPage> {
    return listPage(request, (from, limit) => listNamesFrom(this.deps.db, bucket, from, limit));
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
  async commitObject(
    area: WriteArea,
    row: ObjectRow,
    alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
    finishingUploadId?: string,
  ): Promise<void> {
    if (area.projectId !== undefined && !(await this.deps.attachmentProjectOpen(area.projectId))) {
      throw storageErrors.noWritePermission();
    }
    const replaced = await this.deps.db.transaction().execute(async (trx) => {
      await lockOwner(trx, this.deps.dialect, area.ownerUid);
      // An attachment is written once: a second object at its name would change a registered file's bytes.
      if (area.kind === 'attachment' && (await findObject(trx, row.bucket, row.name))) {
        throw storageErrors.noWritePermission();
      }
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
  async remainingQuota(
    db: Kysely<Database>,
    area: WriteArea,
    bucket: string,
    name: string,
    finishingUploadId?: string,
  ): Promise<number> {
    const held = await bytesHeldBy(
      db,
      area.ownerUid,
      uploadSessionCutoff(this.deps.uploadSessionTtlMs),
      finishingUploadId,
    );
    const existing = await findObject(db, bucket, name);
    const freed = existing?.owner_uid === area.ownerUid ? existing.size : 0;
    return Math.max(0, this.deps.quotaBytes - held.stored - held.reserved + freed);
  }
}

import type { Kysely } from 'kysely';
import {
  STORAGE_DEFAULT_CONTENT_TYPE as DEFAULT_CONTENT_TYPE,
  STORAGE_OPEN_UPLOADS_MAX,
  UPLOAD_ID_PATTERN,
  type ObjectResource,
  type WritableMetadata,
} from '../../../common';
import type { Database, DialectName, StorageUploadStatus } from '../../db/schema';
import { limitBytes, skipBytes } from '../../core/byte-streams';
import { newId } from '../../core/ids';
import type { KeyedMutex } from '../../core/keyed-mutex';
import { nowIso } from '../../core/time';
import type { BlobStore } from '../stores/blob-store';
import { requireContentType } from '../objects/metadata-rules';
import { applyMetadata, EMPTY_METADATA, parseWritableMetadata } from '../objects/object-metadata';
import { newObjectRow, toObjectResource } from '../objects/object-presenter';
import { lockOwner } from '../objects/objects-repository';
import { StorageProtocolError, storageErrors } from '../protocol/storage-errors';
import {
  checkContent,
  judgesBytes,
  maxBytesOf,
  requireWriteArea,
  SNIFF_BYTES,
} from '../objects/storage-rules';
import type { StorageService } from '../objects/storage-service';
import { nameIn, requireMd5, requireName, uploadSessionCutoff } from './upload-rules';
import {
  countOpenUploads,
  findUpload,
  insertUpload,
  markCancelled,
  markFinal,
  recordReceived,
  type UploadRow,
} from './uploads-repository';

/** What a resumable upload command answers (docs/storage-protocol.md#48-resumable-upload, b–e). */
export interface UploadState {
  status: StorageUploadStatus;
  /** Bytes durably received. */
  received: number;
  /** The object resource, once final. */
  resource?: ObjectResource;
}

/**
 * A resumable chunk may be at most 16 MiB from the SDK (docs/storage-protocol.md §6.2); this leaves a wide
 * margin.
 */
export const CHUNK_MAX_BYTES = 40 * 1024 * 1024;

/**
 * Resumable uploads (docs/storage-protocol.md#48-resumable-upload): the session in the database, its bytes in
 * a part of the BlobStore, so any instance can take the next chunk. One chunk at a time per session.
 */
export class ResumableUploads {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: DialectName;
      blobs: BlobStore;
      /** Writes the finished object, with the same quota and replacement rules as the other uploads. */
      objects: StorageService;
      uploadLocks: KeyedMutex;
      uploadSessionTtlMs: number;
    },
  ) {}

  /**
   * Resumable start (docs/storage-protocol.md §4.8a): the path's owner only (403), within the rules' size
   * (403), at most STORAGE_OPEN_UPLOADS_MAX unfinished sessions per user (429), and the declared size
   * reserved from the quota until the session ends or expires (402), so bytes in parts never exceed it. The
   * session lives in the database and its bytes in a part named by its id.
   */
  async start(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    metadata: Buffer;
    declaredSize: number;
    declaredType: string | undefined;
  }): Promise<{ uploadId: string; name: string }> {
    const metadata = parseWritableMetadata(input.metadata);
    const name = requireName(input.name ?? nameIn(metadata));
    const area = await this.deps.objects.writeArea(input.viewerUid, name);
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
        if (
          (await countOpenUploads(trx, area.ownerUid, uploadSessionCutoff(this.deps.uploadSessionTtlMs))) >=
          STORAGE_OPEN_UPLOADS_MAX
        ) {
          throw storageErrors.tooManyOpenUploads(STORAGE_OPEN_UPLOADS_MAX);
        }
        const remaining = await this.deps.objects.remainingQuota(trx, area, input.bucket, name);
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
   * A command on an upload URL (docs/storage-protocol.md §4.8b–e and §5): `query`, `upload` (offsets as
   * docs/storage-protocol.md §5.2), `upload, finalize`, `finalize` and `cancel`. Only the user who started
   * the session may continue it.
   */
  async continue(input: {
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
    return this.deps.uploadLocks.run(input.uploadId, async () => {
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

  /** The first bytes of a blob, to judge the content by. */
  private async headOf(blobKey: string, size: number): Promise<Buffer> {
    if (size === 0) return Buffer.alloc(0);
    return readAll(this.deps.blobs.read(blobKey, { start: 0, end: Math.min(SNIFF_BYTES, size) - 1 }));
  }

  private async requireSession(input: {
    viewerUid: string;
    bucket: string;
    name: string | undefined;
    uploadId: string;
  }): Promise<UploadRow> {
    const session = UPLOAD_ID_PATTERN.test(input.uploadId)
      ? await findUpload(this.deps.db, input.uploadId)
      : null;
    if (
      !session ||
      session.created_at < uploadSessionCutoff(this.deps.uploadSessionTtlMs) ||
      session.bucket !== input.bucket ||
      (input.name !== undefined && input.name !== session.name)
    ) {
      throw storageErrors.uploadNotFound();
    }
    if (session.owner_uid !== input.viewerUid) throw storageErrors.noWritePermission();
    return session;
  }

  /**
   * Appends a chunk at `offset` (docs/storage-protocol.md §5.2): equal to the bytes received, it appends;
   * below, the overlap is dropped; above (a gap), nothing is written and 503 tells the client to query and
   * resume. The count is raised only after the bytes are synced.
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
   * Finalize (docs/storage-protocol.md §5.3): all declared bytes must be there (400), the content must pass
   * the rules (403 with `X-Goog-Upload-Status: final`; the session ends), the quota must hold (402). Then the
   * object and the session's final state are written in one transaction.
   */
  private async finalize(session: UploadRow, viewerUid: string): Promise<UploadState> {
    const { upload_id: uploadId, declared_size: size } = session;
    if (session.received !== size) {
      throw storageErrors.invalidArgument(
        `The upload has ${session.received} of its ${size} bytes; it cannot be finalized yet.`,
      );
    }
    const area = requireWriteArea(viewerUid, session.name, this.deps.objects.attachmentMaxBytes);
    // The blob first, then its head: on S3 the bytes are in an unfinished multipart upload until then.
    const blob = await this.deps.blobs.commitPart(uploadId, size);
    let contentType: string;
    try {
      contentType = checkContent(
        area,
        {
          size,
          // On S3 a read of the finished blob: only when the rules look at the bytes.
          head: judgesBytes(area) ? await this.headOf(blob.key, size) : Buffer.alloc(0),
          declaredType: session.content_type,
        },
        () => storageErrors.noWritePermission({ 'X-Goog-Upload-Status': 'final' }),
      );
    } catch (error) {
      await markCancelled(this.deps.db, uploadId, nowIso());
      await this.deps.objects.discard(blob.key);
      await this.deps.blobs.deletePart(uploadId);
      throw error;
    }

    const metadata = JSON.parse(session.metadata) as WritableMetadata;
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
      await this.deps.objects.commitObject(
        area,
        row,
        async (trx) => {
          if (!(await markFinal(trx, uploadId, finalResource, row.updated))) throw new SessionMovedOn();
        },
        uploadId,
      );
    } catch (error) {
      // On S3 every finalize of a session completes into the same blob: never delete the winner's.
      if (!(await this.deps.objects.isReferenced(blob.key))) await this.deps.objects.discard(blob.key);
      if (!(error instanceof SessionMovedOn)) throw error;
      // Another instance finalized it first: answer with its result.
      const latest = await findUpload(this.deps.db, uploadId);
      if (latest?.status === 'final') return stateOf(latest);
      throw new StorageProtocolError(503, 'The upload changed meanwhile; query the upload and resume.');
    }
    // The staging goes after the answer, not before: on S3 it is a list and a delete per segment and part
    // marker (about twenty requests for 100 MB). What a failure or a crash leaves, the sweeper removes
    // with the expired session (storage-sweeper.ts).
    void this.deps.blobs.deletePart(uploadId).catch(() => undefined);
    return { status: 'final', received: size, resource };
  }
}

class SessionMovedOn extends Error {}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

function stateOf(session: UploadRow): UploadState {
  return {
    status: session.status,
    received: session.received,
    ...(session.final_resource ? { resource: JSON.parse(session.final_resource) as ObjectResource } : {}),
  };
}

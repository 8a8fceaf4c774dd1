import type { Kysely } from 'kysely';
import type { Readable } from 'node:stream';
import { messages } from '../../common';
import {
  ATTACHMENTS_PER_PROJECT_MAX,
  attachmentMessages,
  parseAttachmentObjectName,
  type Attachment,
  type AttachmentLimits,
  type RegisterAttachmentInput,
} from '../../common/attachments';
import { AppError, forbidden, notFound } from '../core/app-error';
import { readAll } from '../core/byte-streams';
import { newId } from '../core/ids';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { activeProjectMembersOf } from '../notifications/notifications-repository';
import type { NotifyingUnitOfWork } from '../notifications/notifications-service';
import type { StorageService } from '../storage/objects/storage-service';
import type { StoredBlob } from '../storage/stores/blob-store';
import { makeThumbnail, THUMBNAIL_CONTENT_TYPE, THUMBNAIL_SOURCE_MAX_BYTES } from './attachment-thumbnails';
import {
  commentAuthorOf,
  countAttachments,
  deleteAttachmentRow,
  deleteUnregisteredAttachmentObject,
  findAttachment,
  findAttachmentRow,
  findUnregisteredAttachmentObjects,
  isObjectAttached,
  isProjectOpen,
  insertAttachmentIfProjectOpen,
  listAttachments,
  projectCreatorOf,
} from './attachments-repository';
import { CONTENT_SNIFF_BYTES, sniffContent } from './content-sniff';

/** Where a project's thumbnails are stored: no user writes there (storage-rules.ts has no such area). */
const THUMBNAILS_ROOT = 'attachment-thumbnails';
const thumbnailPrefix = (projectId: string) => `${THUMBNAILS_ROOT}/${projectId}/`;
const attachmentsPrefix = (projectId: string) => `attachments/${projectId}/`;
/** Unregistered uploads looked up per query of the sweep. */
const SWEEP_BATCH = 200;

/** What a content or thumbnail download sends: the bytes, and what decides the headers. */
export interface AttachmentBytes {
  attachment: Attachment;
  contentType: string;
  size: number;
  md5: string;
  /** The bytes, all of them or the inclusive range (a Range request: the store reads only that part). */
  read(range?: { start: number; end: number }): Readable;
}

/**
 * Attachments (docs/decisions/073-attachments.md): files uploaded through the storage protocol, then
 * registered here on a project or a comment. The type is sniffed from the stored bytes and an image gets a
 * thumbnail made on the server; the bytes live in the storage service (disk or S3).
 */
export class AttachmentsService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      writes: NotifyingUnitOfWork;
      storage: StorageService;
      /** How long an upload may wait for its registration (ATTACHMENT_UNREGISTERED_HOURS). */
      unregisteredGraceMs: number;
    },
  ) {}

  /**
   * The one read rule of attachments (decision 049): whoever may read the project may read its files,
   * which today is every signed-in member (as for projects and comments). The live source calls it for
   * every subscriber, and every HTTP read calls it first.
   */
  authorizeRead(_viewer: Viewer): void {}

  /** Whether attachments may be written to the project: the storage rules ask it for the attachment area. */
  projectOpen(projectId: string): Promise<boolean> {
    return isProjectOpen(this.deps.db, projectId);
  }

  async limits(viewer: Viewer): Promise<AttachmentLimits> {
    const { storage } = this.deps;
    return {
      maxFileBytes: storage.attachmentMaxBytes,
      quotaBytes: storage.quotaBytes,
      usedBytes: await storage.usedBytes(viewer.uid),
    };
  }

  /** Every attachment of a project (open or completed), newest first; 404 when there is no such project. */
  async list(viewer: Viewer, projectId: string): Promise<Attachment[]> {
    this.authorizeRead(viewer);
    if ((await projectCreatorOf(this.deps.db, projectId)) === null) throw notFound(messages.projectNotFound);
    return listAttachments(this.deps.db, projectId);
  }

  /** The live query's read: none once the project is gone. */
  listForLive(projectId: string): Promise<Attachment[]> {
    return listAttachments(this.deps.db, projectId);
  }

  find(id: string): Promise<Attachment | null> {
    return findAttachment(this.deps.db, id);
  }

  /**
   * Registers a finished upload of the caller in the project's attachment area: its type sniffed from the
   * stored bytes, a thumbnail made of an image, the row inserted and the change published in one unit of
   * work. The project must be open; `commentId` must be the caller's comment on it.
   */
  async register(viewer: Viewer, projectId: string, input: RegisterAttachmentInput): Promise<Attachment> {
    const { db, storage } = this.deps;
    const parsed = parseAttachmentObjectName(input.objectName);
    if (!parsed || parsed.projectId !== projectId) throw notFound(attachmentMessages.uploadNotFound);
    if (parsed.uploaderUid !== viewer.uid) throw forbidden(attachmentMessages.notAllowed);
    if (!(await isProjectOpen(db, projectId))) throw notFound(messages.projectNotFound);
    const object = await storage.find(storage.defaultBucket, input.objectName);
    if (!object || object.owner_uid !== viewer.uid) throw notFound(attachmentMessages.uploadNotFound);
    if (input.commentId !== undefined) {
      const author = await commentAuthorOf(db, projectId, input.commentId);
      if (author === null) throw notFound(messages.commentNotFound);
      if (author !== viewer.uid) throw forbidden(attachmentMessages.commentNotYours);
    }
    if (await isObjectAttached(db, input.objectName)) {
      throw new AppError('conflict', attachmentMessages.alreadyAttached);
    }
    if ((await countAttachments(db, projectId)) >= ATTACHMENTS_PER_PROJECT_MAX) {
      throw new AppError('conflict', attachmentMessages.tooManyInProject);
    }

    const size = Number(object.size);
    const head =
      size === 0
        ? Buffer.alloc(0)
        : await readAll(
            storage.readBytes(object, { start: 0, end: Math.min(size, CONTENT_SNIFF_BYTES) - 1 }),
            CONTENT_SNIFF_BYTES,
            () => new Error('The sniffed head is longer than asked for.'),
          );
    const sniffed = await sniffContent(head, parsed.fileName);
    const id = newId();
    const thumbnail = sniffed.kind === 'image' ? await this.stageThumbnail(object, size) : null;
    const thumbnailName = thumbnail ? `${thumbnailPrefix(projectId)}${id}.webp` : null;
    const row = {
      id,
      project_id: projectId,
      comment_id: input.commentId ?? null,
      uploader_id: viewer.uid,
      object_name: input.objectName,
      name: parsed.fileName,
      size,
      content_type: sniffed.contentType,
      kind: sniffed.kind,
      thumbnail_name: thumbnailName,
      created_at: nowIso(),
    };
    try {
      await this.deps.writes.run(async (trx, write) => {
        if (!(await insertAttachmentIfProjectOpen(trx, row))) throw notFound(messages.projectNotFound);
        if (thumbnail && thumbnailName) {
          await storage.record(trx, {
            bucket: storage.defaultBucket,
            name: thumbnailName,
            blob: thumbnail,
            contentType: THUMBNAIL_CONTENT_TYPE,
            ownerUid: null,
          });
        }
        write.changed({ collection: 'attachments', id, after: { projectId } });
        // The project's creator and assignees (not the uploader), unless they opted out of the kind.
        write.notify({
          kind: 'attached',
          recipientIds: await activeProjectMembersOf(trx, projectId),
          projectId,
          ...(row.comment_id ? { commentId: row.comment_id } : {}),
          actorId: viewer.uid,
        });
      });
    } catch (error) {
      await storage.discard(thumbnail?.key);
      throw error;
    }
    return {
      id,
      projectId,
      commentId: row.comment_id,
      name: row.name,
      size,
      contentType: row.content_type,
      kind: row.kind,
      uploaderId: viewer.uid,
      uploaderName: viewer.displayName,
      createdAt: row.created_at,
      hasThumbnail: thumbnailName !== null,
    };
  }

  /** The uploader, the project's creator or an admin: the row, then the bytes and the thumbnail. */
  async delete(viewer: Viewer, id: string): Promise<void> {
    const { db, storage } = this.deps;
    const row = await findAttachmentRow(db, id);
    if (!row) throw notFound(attachmentMessages.notFound);
    const creator = await projectCreatorOf(db, row.project_id);
    if (row.uploader_id !== viewer.uid && creator !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(attachmentMessages.mayNotDelete);
    }
    await this.deps.writes.run(async (trx, write) => {
      if (!(await deleteAttachmentRow(trx, id))) throw notFound(attachmentMessages.notFound);
      write.changed({ collection: 'attachments', id, after: null });
    });
    await storage.deleteByServer(row.object_name);
    if (row.thumbnail_name) await storage.deleteByServer(row.thumbnail_name);
  }

  /**
   * A project deleted for good takes its files along: every object of its attachment area (registered or
   * not) and its thumbnails, in the store too. Its rows went with the project (foreign key cascade).
   */
  async deleteAllOf(projectId: string): Promise<void> {
    await this.deps.storage.deleteAllUnder(attachmentsPrefix(projectId));
    await this.deps.storage.deleteAllUnder(thumbnailPrefix(projectId));
  }

  /**
   * Deletes uploads to attachment areas that were never registered within the grace (a tab closed between
   * the two steps), rows then bytes, so they stop counting against their uploader's quota
   * (docs/decisions/075-attachment-server-follow-ups.md). Each deletion re-checks in one statement that the
   * object is still unregistered and unchanged, so instances sweeping at once do no harm. Returns how many.
   */
  async sweepUnregistered(now: number = Date.now()): Promise<number> {
    const { db, storage } = this.deps;
    const before = new Date(now - this.deps.unregisteredGraceMs).toISOString();
    let removed = 0;
    for (;;) {
      const names = await findUnregisteredAttachmentObjects(db, storage.defaultBucket, before, SWEEP_BATCH);
      for (const name of names) {
        const blobKey = await deleteUnregisteredAttachmentObject(db, storage.defaultBucket, name, before);
        if (blobKey === undefined) continue;
        await storage.discard(blobKey);
        removed += 1;
      }
      if (names.length < SWEEP_BATCH) return removed;
    }
  }

  /** The bytes of an attachment (`thumbnail`: of its thumbnail), for a viewer who may read the project. */
  async bytes(viewer: Viewer, id: string, which: 'content' | 'thumbnail'): Promise<AttachmentBytes> {
    this.authorizeRead(viewer);
    const { db, storage } = this.deps;
    const row = await findAttachmentRow(db, id);
    const attachment = row ? await findAttachment(db, id) : null;
    if (!row || !attachment) throw notFound(attachmentMessages.notFound);
    const name = which === 'content' ? row.object_name : row.thumbnail_name;
    const object = name === null ? null : await storage.find(storage.defaultBucket, name);
    if (!object) throw notFound(attachmentMessages.notFound);
    return {
      attachment,
      contentType: which === 'content' ? row.content_type : THUMBNAIL_CONTENT_TYPE,
      size: Number(object.size),
      md5: object.md5_hash,
      read: (range) => storage.readBytes(object, range),
    };
  }

  /** A thumbnail of the stored image, staged as a blob (recorded with the row), or null. */
  private async stageThumbnail(
    object: Parameters<StorageService['readBytes']>[0],
    size: number,
  ): Promise<StoredBlob | null> {
    if (size > THUMBNAIL_SOURCE_MAX_BYTES) return null;
    const image = await readAll(
      this.deps.storage.readBytes(object),
      THUMBNAIL_SOURCE_MAX_BYTES,
      () => new Error('The image grew while it was read.'),
    );
    const thumbnail = await makeThumbnail(image);
    return thumbnail ? this.deps.storage.stage(thumbnail) : null;
  }
}

/**
 * Attachments (issue 31, docs/decisions/073-attachments.md). Not part of `createDojoCoreClient`: a screen
 * that shows attachments builds an `AttachmentsClient` over the client's transport and imports this
 * module (and the storage client it uploads with) lazily, so the first visit's bundle stays as it is.
 *
 * An upload is two steps:
 *   1. the bytes go through the storage protocol (resumable above 256 KiB: pause, resume, cancel and
 *      progress are the storage client's `UploadTask`) to `attachmentObjectName(...)`;
 *   2. once the task completes, `register` tells the server, which sniffs the type, makes a thumbnail of
 *      an image and adds the attachment to the project (every open page of it gets it live).
 * `startAttachmentUpload` does step 1 and returns the task and the object name for step 2.
 */
import {
  attachmentContentPath,
  attachmentObjectName,
  attachmentThumbnailPath,
  projectAttachmentsQuery,
  type Attachment,
  type AttachmentLimits,
  type AttachmentList,
  type RegisterAttachmentInput,
} from '../common/attachments';
import type { Storage } from './storage/service';
import { ref } from './storage/reference';
import { uploadBytesResumable } from './storage/operations';
import type { UploadTask } from './storage/upload-task';
import type { Transport } from './transport';

export class AttachmentsClient {
  constructor(private readonly transport: Transport) {}

  /** Every attachment of a project, newest first (also live: `liveTarget(projectId)`). */
  async list(projectId: string): Promise<Attachment[]> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/attachments`;
    return (await this.transport.request<AttachmentList>('GET', path)).attachments;
  }

  /**
   * Step 2: adds a finished upload of the caller to the project (or to `commentId`, a comment of theirs
   * on it). 404 `not-found` when no such upload exists; 403 for another's comment or upload.
   */
  async register(projectId: string, input: RegisterAttachmentInput): Promise<Attachment> {
    const path = `/api/projects/${encodeURIComponent(projectId)}/attachments`;
    return (await this.transport.request<{ attachment: Attachment }>('POST', path, input)).attachment;
  }

  /** The uploader, the project's creator or an admin; removes the row and its bytes. */
  async delete(id: string): Promise<void> {
    await this.transport.request<void>('DELETE', `/api/attachments/${encodeURIComponent(id)}`);
  }

  /** The per-file limit and the caller's quota, to show (and check) before an upload starts. */
  limits(): Promise<AttachmentLimits> {
    return this.transport.request<AttachmentLimits>('GET', '/api/attachments/limits');
  }

  /** The URL of the bytes: inline for images, PDF and plain text; a download for everything else. */
  contentUrl(id: string): string {
    return `${this.transport.baseUrl}${attachmentContentPath(id)}`;
  }

  /** The URL of an image's thumbnail (only when `hasThumbnail`). */
  thumbnailUrl(id: string): string {
    return `${this.transport.baseUrl}${attachmentThumbnailPath(id)}`;
  }

  /** The live target of a project's attachments: `client.subscribe(attachments.liveTarget(id), …)`. */
  liveTarget(projectId: string) {
    return projectAttachmentsQuery(projectId);
  }
}

/** A random id for one upload's folder, so two files of one name never meet. */
function newUploadId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Step 1: starts uploading `file` for `projectId` as `uploaderUid` (the signed-in user). Observe the task
 * (`task.on('state_changed', …)`), `pause()`, `resume()`, `cancel()` it; when it resolves, call
 * `register(projectId, { objectName, commentId })`. A refusal rejects the task with a StorageError:
 * `storage/quota-exceeded` (attachmentMessages.overQuota), `storage/unauthorized` (too big, or not
 * allowed: check `attachmentSizeProblem` first to tell them apart).
 */
export function startAttachmentUpload(
  storage: Storage,
  projectId: string,
  uploaderUid: string,
  file: Blob & { name?: string },
): { task: UploadTask; objectName: string } {
  const objectName = attachmentObjectName(projectId, uploaderUid, newUploadId(), file.name ?? 'file');
  // The declared type is only a hint the server never trusts (it sniffs the bytes at `register`).
  const task = uploadBytesResumable(ref(storage, objectName), file, {
    contentType: file.type || 'application/octet-stream',
  });
  return { task, objectName };
}

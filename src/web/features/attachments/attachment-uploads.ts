import { attachmentMessages, type Attachment, type AttachmentLimits } from '../../../common/attachments';
import { AttachmentsClient, startAttachmentUpload } from '../../../sdk/attachments';
import { DojoError } from '../../../sdk/errors';
import { createStorage } from '../../../sdk/storage/service';
import { StorageError } from '../../../sdk/storage/storage-error';
import { dojo } from '../../lib/dojo-client';
import { hasEnded, UploadQueue, type QueueItem } from './upload-queue';

/**
 * The web app's attachment uploads (issue 31). This module and everything it imports (the storage client,
 * the attachments SDK) are only ever loaded with `import()`: the app's core client leaves storage out so
 * the first visit stays small (docs/benchmarks.md).
 *
 * One upload queue per project, kept for the tab's life rather than the component's: uploads go on while
 * the user reads another page, and the project page shows them again on return. Files picked in the create
 * and edit forms and in a comment join the same queue once the project (or the comment) exists.
 */

/** Uploads sent at once per project: enough to keep the line busy, few enough that each one moves. */
const UPLOADS_AT_ONCE = 3;

export const attachmentsClient = new AttachmentsClient(dojo.transport);

const storage = createStorage({
  baseUrl: location.origin,
  bucket: 'dojo',
  // Signed out: no token, and the server answers storage/unauthenticated.
  getToken: () => (dojo.auth.currentUser ? dojo.auth.getIdToken() : null),
});

// ---- limits ------------------------------------------------------------------------------------------

let limits: AttachmentLimits | null = null;
let limitsLoading: Promise<void> | null = null;
const limitListeners = new Set<() => void>();

/** The per-file limit and the user's quota, as last read from the server (null until the first answer). */
export function currentLimits(): AttachmentLimits | null {
  return limits;
}

export function subscribeLimits(listener: () => void): () => void {
  limitListeners.add(listener);
  return () => limitListeners.delete(listener);
}

/** Reads the limits again (after uploads or deletes changed the quota's use); failures keep the last. */
export function refreshLimits(): Promise<void> {
  limitsLoading ??= attachmentsClient
    .limits()
    .then((answer) => {
      limits = answer;
      for (const listener of limitListeners) listener();
    })
    .catch(() => undefined)
    .finally(() => {
      limitsLoading = null;
    });
  return limitsLoading;
}

/**
 * Why `file` may not start: too big for one attachment, or more than what is left of the quota once the
 * files already waiting in this queue (`pendingBytes`) are counted. Null when it may (or before the limits
 * are known: the server refuses it then, with the same words).
 */
export function refusalBeforeUpload(size: number, pendingBytes = 0): string | null {
  if (!limits) return null;
  if (size > limits.maxFileBytes) return attachmentMessages.tooBig(limits.maxFileBytes);
  if (size + pendingBytes > limits.quotaBytes - limits.usedBytes) return attachmentMessages.overQuota;
  return null;
}

/** What a failed upload or registration says, in the catalogue's words. */
function describeUploadError(error: unknown, size: number): string {
  if (error instanceof StorageError) {
    if (error.is('quota-exceeded')) return attachmentMessages.overQuota;
    if (error.status === 429) return attachmentMessages.tooManyUploads;
    if (error.is('unauthorized')) {
      // The storage rules refuse both with one code; the size tells them apart.
      return limits && size > limits.maxFileBytes
        ? attachmentMessages.tooBig(limits.maxFileBytes)
        : attachmentMessages.notAllowed;
    }
    return attachmentMessages.uploadFailed;
  }
  return error instanceof DojoError ? error.message : attachmentMessages.uploadFailed;
}

// ---- queues ------------------------------------------------------------------------------------------

interface Destination {
  objectName: string | null;
  commentId: string | undefined;
}

interface ProjectUploads {
  queue: UploadQueue;
  destinations: WeakMap<File, Destination>;
}

const queues = new Map<string, ProjectUploads>();

/** The live announcer while a project's panel is shown (it sets it); null while none is. */
let announcer: ((text: string) => void) | null = null;
/** What ended while no panel was shown (files sent from the create form, say), told when one is. */
let untold: string | null = null;

function announce(text: string): void {
  if (announcer) announcer(text);
  else untold = text;
}

export function setUploadAnnouncer(say: (text: string) => void): () => void {
  announcer = say;
  if (untold !== null) say(untold);
  untold = null;
  return () => {
    if (announcer === say) announcer = null;
  };
}

/** The sentence said when a batch of uploads has ended. */
function uploadsEndedText(items: readonly QueueItem[]): string {
  const done = items.filter((item) => item.state === 'done').length;
  const failed = items.filter((item) => item.state === 'failed').length;
  const parts = [];
  if (done > 0) parts.push(`${done} ${done === 1 ? 'file' : 'files'} attached`);
  if (failed > 0) parts.push(`${failed} could not be attached`);
  return parts.length > 0 ? `${parts.join(', ')}.` : 'Uploads canceled.';
}

function pendingBytesOf(queue: UploadQueue): number {
  return queue
    .getSnapshot()
    .filter((item) => !hasEnded(item) && item.state !== 'finishing')
    .reduce((sum, item) => sum + item.size, 0);
}

/** The project's upload queue, made on first use. */
export function uploadsFor(projectId: string): UploadQueue {
  const existing = queues.get(projectId);
  if (existing) return existing.queue;
  const destinations = new WeakMap<File, Destination>();
  let queue: UploadQueue | undefined = undefined;
  queue = new UploadQueue({
    concurrency: UPLOADS_AT_ONCE,
    check: (file, queued) =>
      refusalBeforeUpload(
        file.size,
        (queue ? pendingBytesOf(queue) : 0) + queued.reduce((sum, other) => sum + other.size, 0),
      ),
    start: (file) => {
      const uid = dojo.auth.currentUser?.uid;
      if (!uid) throw new DojoError('unauthenticated', attachmentMessages.notAllowed, 401);
      const { task, objectName } = startAttachmentUpload(storage, projectId, uid, file);
      const destination = destinations.get(file);
      destinations.set(file, { objectName, commentId: destination?.commentId });
      return task;
    },
    finish: async (file) => {
      const destination = destinations.get(file);
      if (!destination?.objectName) throw new Error('upload without an object name');
      await attachmentsClient.register(projectId, {
        objectName: destination.objectName,
        ...(destination.commentId ? { commentId: destination.commentId } : {}),
      });
    },
    describeError: (error, file) => describeUploadError(error, file.size),
    onSettled: (items) => {
      announce(uploadsEndedText(items));
      void refreshLimits();
    },
  });
  queues.set(projectId, { queue, destinations });
  return queue;
}

/** Queues files for a project (or for one of the user's comments on it). */
export function attachFiles(projectId: string, files: readonly File[], commentId?: string): void {
  if (files.length === 0) return;
  const uploads = uploadsFor(projectId);
  const entry = queues.get(projectId);
  for (const file of files) entry?.destinations.set(file, { objectName: null, commentId });
  uploads.add(files);
}

/** May this user delete this attachment? The server's rule, reflected: uploader, project creator, admin. */
export function mayDeleteAttachment(
  attachment: Pick<Attachment, 'uploaderId'>,
  projectCreatorId: string,
  user: { uid: string; role: string } | null,
): boolean {
  return (
    user !== null &&
    (attachment.uploaderId === user.uid || projectCreatorId === user.uid || user.role === 'admin')
  );
}

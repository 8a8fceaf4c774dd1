import { z } from 'zod/mini';

/**
 * Attachments on projects and comments (issue 31, docs/decisions/073-attachments.md): the shapes the
 * server answers, where an attachment's bytes are uploaded, the limits and the messages. Imported by path
 * (never through index.ts), so only the project screen's chunk and the server carry it.
 */

/** How the browser may show an attachment; decided by the server from the sniffed bytes, never the name. */
const ATTACHMENT_KINDS = ['image', 'pdf', 'text', 'other'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export const AttachmentSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  /** The comment it was attached to, or null when it belongs to the project itself. */
  commentId: z.nullable(z.string()),
  /** The file's name as uploaded (the last segment of its object name). */
  name: z.string(),
  size: z.number(),
  /** The type the server sniffed from the stored bytes (application/octet-stream when unknown). */
  contentType: z.string(),
  kind: z.enum(ATTACHMENT_KINDS),
  uploaderId: z.string(),
  /** The uploader's display name when the list was read, for "by … at …". */
  uploaderName: z.string(),
  createdAt: z.string(),
  /** True for images the server could make a thumbnail of (GET …/thumbnail answers). */
  hasThumbnail: z.boolean(),
});
export type Attachment = z.infer<typeof AttachmentSchema>;

/** POST /api/projects/:projectId/attachments: register an upload that has finished. */
export const RegisterAttachmentSchema = z.object({
  objectName: z.string().check(z.minLength(1), z.maxLength(1024)),
  commentId: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
});
export type RegisterAttachmentInput = z.infer<typeof RegisterAttachmentSchema>;

/** GET /api/projects/:projectId/attachments: every attachment of the project, newest first. */
export interface AttachmentList {
  attachments: Attachment[];
}

/** GET /api/attachments/limits: shown before an upload starts. */
export interface AttachmentLimits {
  /** The largest file one attachment may be (ATTACHMENT_MAX_BYTES). */
  maxFileBytes: number;
  /** Bytes the signed-in user may store in all (STORAGE_QUOTA_BYTES)… */
  quotaBytes: number;
  /** …of which they already use this many (open uploads included). */
  usedBytes: number;
}

/** The default of ATTACHMENT_MAX_BYTES: 100 MB. */
export const ATTACHMENT_MAX_BYTES_DEFAULT = 100 * 1024 * 1024;

/** The first segment of every attachment's object name: the storage rules' attachment area. */
const ATTACHMENTS_ROOT = 'attachments';

/** The longest file name an attachment keeps (longer ones are cut, keeping the extension). */
const ATTACHMENT_NAME_MAX_LENGTH = 200;

/**
 * Where an attachment's bytes are uploaded with the storage client:
 * `attachments/{projectId}/{uploaderUid}/{uploadId}/{file name}`. Only the uploader may write there,
 * only while the project is open; `uploadId` keeps two files of one name apart.
 */
export function attachmentObjectName(
  projectId: string,
  uploaderUid: string,
  uploadId: string,
  fileName: string,
): string {
  return [ATTACHMENTS_ROOT, projectId, uploaderUid, uploadId, attachmentFileName(fileName)].join('/');
}

/** A file name made safe as an object name's last segment: no slashes, no control characters. */
function attachmentFileName(fileName: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const chars = [...base];
  let cut = base;
  if (chars.length > ATTACHMENT_NAME_MAX_LENGTH) {
    const dot = base.lastIndexOf('.');
    const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
    cut = chars.slice(0, ATTACHMENT_NAME_MAX_LENGTH - extension.length).join('') + extension;
  }
  return cut === '' || cut === '.' || cut === '..' ? 'file' : cut;
}

/** The parts of an attachment object name, or null when `name` is not one. */
export function parseAttachmentObjectName(
  name: string,
): { projectId: string; uploaderUid: string; uploadId: string; fileName: string } | null {
  const parts = name.split('/');
  if (parts.length !== 5 || parts[0] !== ATTACHMENTS_ROOT) return null;
  const [, projectId, uploaderUid, uploadId, fileName] = parts as [string, string, string, string, string];
  if (!projectId || !uploaderUid || !uploadId || !fileName) return null;
  return { projectId, uploaderUid, uploadId, fileName };
}

/** Human sizes for limits and lists: 1.5 MB, 820 kB, 12 bytes (decimal units, as browsers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

export const attachmentMessages = {
  tooBig: (maxBytes: number) => `This file is too big: an attachment is at most ${formatBytes(maxBytes)}.`,
  overQuota: 'This file does not fit in your storage quota. Delete files you no longer need first.',
  notAllowed: 'You may not attach files to this project.',
  notFound: 'This attachment does not exist or was deleted.',
  mayNotDelete: 'Only the uploader, the project’s creator or an admin may delete this attachment.',
  /** POST …/attachments with an object that is not a finished upload of the caller in this project. */
  uploadNotFound: 'No finished upload of yours for this project has that name. Upload the file first.',
  /** POST …/attachments with a commentId that is not the caller's comment on this project. */
  commentNotYours: 'Files can be attached only to your own comments on this project.',
  alreadyAttached: 'This upload is already attached.',
  tooManyInProject: 'This project has as many attachments as it may keep. Delete some first.',
  tooManyUploads: 'Too many uploads at once. Wait a minute, then try again.',
  uploadFailed: 'The upload failed. Try again.',
} as const;

/** Why a file may not even start uploading (size only; the quota is the server's, see `AttachmentLimits`). */
export function attachmentSizeProblem(size: number, limits: AttachmentLimits): string | null {
  if (size > limits.maxFileBytes) return attachmentMessages.tooBig(limits.maxFileBytes);
  if (size > limits.quotaBytes - limits.usedBytes) return attachmentMessages.overQuota;
  return null;
}

/**
 * The live query of a project's attachments, newest first (every attachment: a project keeps few). New
 * and deleted attachments arrive as changes; subscribe with `client.subscribe(projectAttachmentsQuery(id), …)`.
 */
export function projectAttachmentsQuery(projectId: string) {
  return {
    kind: 'query' as const,
    collection: 'attachments' as const,
    where: [{ field: 'projectId', op: '==' as const, value: projectId }],
    orderBy: { field: 'createdAt', direction: 'desc' as const },
  };
}

/** The most attachments a project keeps (the list and the live query answer all of them). */
export const ATTACHMENTS_PER_PROJECT_MAX = 500;

/** Where the content and thumbnail are read (same origin: the session cookie authorizes). */
export const attachmentContentPath = (id: string): string =>
  `/api/attachments/${encodeURIComponent(id)}/content`;
export const attachmentThumbnailPath = (id: string): string =>
  `/api/attachments/${encodeURIComponent(id)}/thumbnail`;

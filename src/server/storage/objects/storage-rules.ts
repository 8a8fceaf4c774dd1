import {
  IMAGE_SNIFF_BYTES,
  sniffRasterImage,
  THUMBNAIL_MAX_BYTES,
  type RasterImageType,
} from '../../../common';
import { ATTACHMENT_MAX_BYTES_DEFAULT, parseAttachmentObjectName } from '../../../common/attachments';
import { storageErrors } from '../protocol/storage-errors';

/**
 * The storage rules (docs/storage-protocol.md#13-authentication-and-rules, docs/product-spec.md#flaw-11, docs/product-spec.md#flaw-13): a user writes only
 * under `thumbnails/{own uid}/` (raster images, judged by their bytes, of at most 100000 bytes) and
 * `files/{own uid}/` (anything, within the quota), and `attachments/{projectId}/{own uid}/{upload id}/{file}`
 * (docs/decisions/073-attachments.md: anything of at most ATTACHMENT_MAX_BYTES, within the quota, only while
 * the project is open, written once: the storage service asks the attachments feature about the project).
 * Every signed-in user may read and list.
 */
export interface WriteArea {
  kind: 'thumbnail' | 'file' | 'attachment';
  /** The uid in the path: the only user who may write there, and whose quota the object counts against. */
  ownerUid: string;
  /** An attachment's project; its bytes may be written only while the project is open. */
  projectId?: string;
  /** An attachment's largest size (ATTACHMENT_MAX_BYTES). */
  maxBytes?: number;
}

export function writeAreaOf(
  name: string,
  attachmentMaxBytes: number = ATTACHMENT_MAX_BYTES_DEFAULT,
): WriteArea | null {
  const [root, uid, ...rest] = name.split('/');
  if (!uid || rest.length === 0) return null;
  if (root === 'thumbnails') return { kind: 'thumbnail', ownerUid: uid };
  if (root === 'files') return { kind: 'file', ownerUid: uid };
  const attachment = parseAttachmentObjectName(name);
  if (attachment) {
    return {
      kind: 'attachment',
      ownerUid: attachment.uploaderUid,
      projectId: attachment.projectId,
      maxBytes: attachmentMaxBytes,
    };
  }
  return null;
}

/** The area the viewer may write `name` in; 403 when the rules refuse. */
export function requireWriteArea(viewerUid: string, name: string, attachmentMaxBytes?: number): WriteArea {
  const area = writeAreaOf(name, attachmentMaxBytes);
  if (!area || area.ownerUid !== viewerUid) throw storageErrors.noWritePermission();
  return area;
}

export const SNIFF_BYTES = IMAGE_SNIFF_BYTES;

/** The most bytes the rules let an object in this area have (the quota is checked separately). */
export const maxBytesOf = (area: WriteArea): number =>
  area.kind === 'thumbnail' ? THUMBNAIL_MAX_BYTES : (area.maxBytes ?? Number.MAX_SAFE_INTEGER);

/**
 * Whether the area's rules look at the bytes (thumbnails must be images); files are taken as declared, and
 * so are attachments here: their type is sniffed when they are registered, and only that type is served.
 */
export const judgesBytes = (area: WriteArea): boolean => area.kind === 'thumbnail';

/**
 * Judges finished content against the area's rules. Returns the content type to store: for thumbnails
 * the type the bytes prove, never the declared one.
 */
export function checkContent(
  area: WriteArea,
  content: { size: number; head: Uint8Array; declaredType: string },
  refusal: () => Error = () => storageErrors.noWritePermission(),
): string {
  if (!judgesBytes(area)) return content.declaredType;
  const sniffed: RasterImageType | null = sniffRasterImage(content.head);
  if (!sniffed || content.size > THUMBNAIL_MAX_BYTES) throw refusal();
  return sniffed;
}

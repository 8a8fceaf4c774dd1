import {
  IMAGE_SNIFF_BYTES,
  sniffRasterImage,
  THUMBNAIL_MAX_BYTES,
  type RasterImageType,
} from '../../../common';
import { storageErrors } from '../protocol/storage-errors';

/**
 * The storage rules (docs/storage-protocol.md#13-authentication-and-rules, docs/product-spec.md#flaw-11, docs/product-spec.md#flaw-13): a user writes only
 * under `thumbnails/{own uid}/` (raster images, judged by their bytes, of at most 100000 bytes) and
 * `files/{own uid}/` (anything, within the quota). Every signed-in user may read and list.
 */
export interface WriteArea {
  kind: 'thumbnail' | 'file';
  /** The uid in the path: the only user who may write there, and whose quota the object counts against. */
  ownerUid: string;
}

export function writeAreaOf(name: string): WriteArea | null {
  const [root, uid, ...rest] = name.split('/');
  if (!uid || rest.length === 0) return null;
  if (root === 'thumbnails') return { kind: 'thumbnail', ownerUid: uid };
  if (root === 'files') return { kind: 'file', ownerUid: uid };
  return null;
}

/** The area the viewer may write `name` in; 403 when the rules refuse. */
export function requireWriteArea(viewerUid: string, name: string): WriteArea {
  const area = writeAreaOf(name);
  if (!area || area.ownerUid !== viewerUid) throw storageErrors.noWritePermission();
  return area;
}

export const SNIFF_BYTES = IMAGE_SNIFF_BYTES;

/** The most bytes the rules let an object in this area have (the quota is checked separately). */
export const maxBytesOf = (area: WriteArea): number =>
  area.kind === 'thumbnail' ? THUMBNAIL_MAX_BYTES : Number.MAX_SAFE_INTEGER;

/** Whether the area's rules look at the bytes (thumbnails must be images); files are taken as declared. */
export const judgesBytes = (area: WriteArea): boolean => area.kind !== 'file';

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

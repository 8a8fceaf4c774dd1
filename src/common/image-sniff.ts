import type { RasterImageType } from './storage-objects';

/**
 * Raster image detection by magic bytes, shared by the signup form and the server so both judge a
 * thumbnail the same way. SVG is deliberately absent: it can carry script (docs/product-spec.md#flaw-13).
 */

/** Bytes needed from the start of a file to decide. */
export const IMAGE_SNIFF_BYTES = 32;

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, index) => bytes[offset + index] === byte);

const ascii = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));

export function sniffRasterImage(head: Uint8Array): RasterImageType | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('BM')) && isBmpHeader(head)) return 'image/bmp';
  if (startsWith(head, ascii('ftypavif'), 4) || startsWith(head, ascii('ftypavis'), 4)) return 'image/avif';
  return null;
}

/** BMP: reserved bytes 6..9 are zero and the DIB header at 14 has one of the known sizes. */
function isBmpHeader(head: Uint8Array): boolean {
  if (head.length < 18) return false;
  if (head[6] !== 0 || head[7] !== 0 || head[8] !== 0 || head[9] !== 0) return false;
  const dibSize =
    (head[14] ?? 0) | ((head[15] ?? 0) << 8) | ((head[16] ?? 0) << 16) | ((head[17] ?? 0) << 24);
  return [12, 40, 52, 56, 64, 108, 124].includes(dibSize);
}

import { pngChunk } from '../../test/support/png';

/** A file for `locator.setInputFiles` and for multipart bodies of `APIRequestContext`. */
export interface FilePayload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A valid 1×1 RGBA PNG (signature, IHDR, IDAT, IEND). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const IEND_CHUNK_LENGTH = 12;

export function pngFile(name = 'avatar.png'): FilePayload {
  return { name, mimeType: 'image/png', buffer: TINY_PNG };
}

/**
 * Still a valid PNG that decoders accept, grown past `bytes` with an ancillary text chunk before IEND,
 * so only its size is wrong.
 */
export function largePngFile(bytes = 120_000, name = 'large.png'): FilePayload {
  const beforeEnd = TINY_PNG.subarray(0, TINY_PNG.length - IEND_CHUNK_LENGTH);
  const end = TINY_PNG.subarray(TINY_PNG.length - IEND_CHUNK_LENGTH);
  const padding = Buffer.concat([Buffer.from('Comment\0', 'latin1'), Buffer.alloc(bytes, 'x')]);
  return { name, mimeType: 'image/png', buffer: Buffer.concat([beforeEnd, pngChunk('tEXt', padding), end]) };
}

export function textFile(name = 'notes.txt'): FilePayload {
  return { name, mimeType: 'text/plain', buffer: Buffer.from('not an image\n', 'utf8') };
}

/** SVG is an image type to the browser, but it can carry script, so The Dojo refuses it. */
export function svgFile(name = 'avatar.svg'): FilePayload {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>\n';
  return { name, mimeType: 'image/svg+xml', buffer: Buffer.from(svg, 'utf8') };
}

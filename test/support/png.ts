import { crc32, deflateSync } from 'node:zlib';

/**
 * PNG building blocks for test, end-to-end and benchmark fixtures: real images that decoders and our
 * magic-byte sniffing accept, made in memory.
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One PNG chunk: length, type, data, and the CRC-32 of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * An 8-bit truecolour PNG of `width` × `height` from its raw scanlines (each a filter byte, then RGB
 * triples); `extraChunks` go between the image data and the end.
 */
export function rgbPng(width: number, height: number, scanlines: Buffer, extraChunks: Buffer[] = []): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(scanlines)),
    ...extraChunks,
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

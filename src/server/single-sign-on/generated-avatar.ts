import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** Cells per side of the pattern; the left half is mirrored, as identicons are. */
const GRID = 5;
const CELL_PIXELS = 12;
const MARGIN_PIXELS = 8;
const SIZE = GRID * CELL_PIXELS + 2 * MARGIN_PIXELS;
const BACKGROUND = [0xf2, 0xf2, 0xf2] as const;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The picture of an account a provider made without a `picture` of its own: a symmetric 5 × 5 pattern in
 * one colour, both drawn from the sha256 of the user id, so the same account always gets the same face.
 * A plain 76 × 76 truecolour PNG written here with node:zlib, no image library.
 */
export function generatedAvatarPng(seed: string): Buffer {
  const hash = createHash('sha256').update(seed).digest();
  const colour = hslToRgb(((hash[0] ?? 0) / 255) * 360, 0.55, 0.5);
  const filled = (column: number, row: number): boolean => {
    const mirrored = column < Math.ceil(GRID / 2) ? column : GRID - 1 - column;
    const bit = row * Math.ceil(GRID / 2) + mirrored;
    return (((hash[1 + (bit >> 3)] ?? 0) >> (bit & 7)) & 1) === 1;
  };
  const rowBytes = 1 + SIZE * 3;
  const scanlines = Buffer.alloc(SIZE * rowBytes);
  for (let y = 0; y < SIZE; y += 1) {
    for (let x = 0; x < SIZE; x += 1) {
      const column = Math.floor((x - MARGIN_PIXELS) / CELL_PIXELS);
      const row = Math.floor((y - MARGIN_PIXELS) / CELL_PIXELS);
      const inside = column >= 0 && column < GRID && row >= 0 && row < GRID;
      const pixel = inside && filled(column, row) ? colour : BACKGROUND;
      scanlines.set(pixel, y * rowBytes + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const h = hue / 60;
  const x = chroma * (1 - Math.abs((h % 2) - 1));
  const [r, g, b] =
    h < 1
      ? [chroma, x, 0]
      : h < 2
        ? [x, chroma, 0]
        : h < 3
          ? [0, chroma, x]
          : h < 4
            ? [0, x, chroma]
            : h < 5
              ? [x, 0, chroma]
              : [chroma, 0, x];
  const m = lightness - chroma / 2;
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

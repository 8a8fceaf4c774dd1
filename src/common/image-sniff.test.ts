import { describe, it, expect } from 'vitest';
import { sniffRasterImage } from './image-sniff';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const text = (value: string): Uint8Array => new TextEncoder().encode(value);
/** Signature followed by filler, so the head is as long as a real sniff window (16 bytes). */
const padded = (head: Uint8Array, length = 16): Uint8Array => {
  const out = new Uint8Array(Math.max(length, head.length));
  out.set(head);
  return out;
};
const concat = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

describe('sniffRasterImage', () => {
  describe('detects raster images by their magic bytes', () => {
    it('PNG', () => {
      expect(sniffRasterImage(padded(PNG))).toBe('image/png');
    });

    it('PNG with exactly the 8 signature bytes', () => {
      expect(sniffRasterImage(PNG)).toBe('image/png');
    });

    it('JPEG (FF D8 FF)', () => {
      expect(sniffRasterImage(padded(bytes(0xff, 0xd8, 0xff, 0xe0)))).toBe('image/jpeg');
    });

    it('GIF87a', () => {
      expect(sniffRasterImage(padded(text('GIF87a')))).toBe('image/gif');
    });

    it('GIF89a', () => {
      expect(sniffRasterImage(padded(text('GIF89a')))).toBe('image/gif');
    });

    it('WebP (RIFF, 4 size bytes, WEBP)', () => {
      const head = concat(text('RIFF'), bytes(0x24, 0x00, 0x00, 0x00), text('WEBPVP8 '));
      expect(sniffRasterImage(head)).toBe('image/webp');
    });

    it('BMP (file header, zero reserved bytes, 40-byte BITMAPINFOHEADER)', () => {
      const fileHeader = concat(text('BM'), bytes(0x3a, 0, 0, 0), bytes(0, 0, 0, 0), bytes(0x36, 0, 0, 0));
      expect(sniffRasterImage(padded(concat(fileHeader, bytes(40, 0, 0, 0)), 32))).toBe('image/bmp');
    });

    it('not text that merely starts with "BM"', () => {
      expect(sniffRasterImage(text('BMW owners club meeting notes, 2026'))).toBeNull();
    });

    it('AVIF (ftypavif at offset 4)', () => {
      const head = concat(bytes(0x00, 0x00, 0x00, 0x1c), text('ftypavif'), bytes(0, 0, 0, 0));
      expect(sniffRasterImage(head)).toBe('image/avif');
    });

    it('AVIF image sequence (ftypavis at offset 4)', () => {
      const head = concat(bytes(0x00, 0x00, 0x00, 0x1c), text('ftypavis'), bytes(0, 0, 0, 0));
      expect(sniffRasterImage(head)).toBe('image/avif');
    });
  });

  describe('refuses everything else', () => {
    it('SVG text, even with an XML prolog', () => {
      expect(sniffRasterImage(text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg">'))).toBe(
        null,
      );
      expect(sniffRasterImage(text('<svg xmlns="http://www.w3.org/2000/svg" width="1"/>'))).toBe(null);
    });

    it('HTML', () => {
      expect(sniffRasterImage(text('<!DOCTYPE html><html><body>hi</body></html>'))).toBe(null);
    });

    it('plain text', () => {
      expect(sniffRasterImage(text('just some notes about the project'))).toBe(null);
    });

    it('an empty head', () => {
      expect(sniffRasterImage(new Uint8Array(0))).toBe(null);
    });

    it('a truncated PNG signature (first 3 bytes)', () => {
      expect(sniffRasterImage(PNG.subarray(0, 3))).toBe(null);
    });

    it('a PNG signature with one byte wrong', () => {
      const broken = padded(PNG);
      broken[7] = 0x0b;
      expect(sniffRasterImage(broken)).toBe(null);
    });

    it('a truncated JPEG signature (2 bytes)', () => {
      expect(sniffRasterImage(bytes(0xff, 0xd8))).toBe(null);
    });

    it('GIF with an unknown version', () => {
      expect(sniffRasterImage(padded(text('GIF88a')))).toBe(null);
    });

    it('RIFF that is not WEBP (e.g. WAVE audio)', () => {
      const head = concat(text('RIFF'), bytes(0x24, 0x00, 0x00, 0x00), text('WAVEfmt '));
      expect(sniffRasterImage(head)).toBe(null);
    });

    it('RIFF cut off before the WEBP tag', () => {
      expect(sniffRasterImage(concat(text('RIFF'), bytes(0x24, 0x00, 0x00, 0x00), text('WEB')))).toBe(null);
    });

    it('WEBP at the wrong offset', () => {
      expect(sniffRasterImage(padded(text('RIFFWEBP')))).toBe(null);
    });

    it('BM shorter than a BMP file header (14 bytes)', () => {
      expect(sniffRasterImage(concat(text('BM'), new Uint8Array(11)))).toBe(null);
    });

    it('ftypavif not at offset 4 (e.g. at 0)', () => {
      expect(sniffRasterImage(padded(text('ftypavif')))).toBe(null);
    });

    it('other ISO-BMFF brands (MP4 ftypisom, HEIC ftypheic)', () => {
      const box = bytes(0x00, 0x00, 0x00, 0x1c);
      expect(sniffRasterImage(padded(concat(box, text('ftypisom'))))).toBe(null);
      expect(sniffRasterImage(padded(concat(box, text('ftypheic'))))).toBe(null);
    });

    it('PDF', () => {
      expect(sniffRasterImage(text('%PDF-1.7\n%âãÏÓ\n'))).toBe(null);
    });
  });
});

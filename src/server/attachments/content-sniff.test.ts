import { describe, expect, it } from 'vitest';
import { sniffContent } from './content-sniff';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))),
  );

/** A PNG's signature and IHDR chunk: what the common raster sniffer reads. */
const pngHead = bytes(
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0, 0, 0, 13],
  'IHDR',
  [0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0],
  [0x1f, 0xf3, 0xff, 0x61],
);

describe('sniffContent', () => {
  it('keeps the inline allow-list: raster images, PDF and plain UTF-8 text', async () => {
    expect(await sniffContent(pngHead, 'any.bin')).toEqual({ contentType: 'image/png', kind: 'image' });
    expect(await sniffContent(bytes('%PDF-1.7\n', [0xe2, 0xe3, 0xcf, 0xd3]), 'x')).toEqual({
      contentType: 'application/pdf',
      kind: 'pdf',
    });
    expect(await sniffContent(bytes('Grüße, plain text\n'), 'notes.md')).toEqual({
      contentType: 'text/plain; charset=utf-8',
      kind: 'text',
    });
    expect(await sniffContent(new Uint8Array(0), 'empty')).toEqual({
      contentType: 'text/plain; charset=utf-8',
      kind: 'text',
    });
  });

  it('looks for markup first: HTML behind a PDF signature or a PNG name is a download', async () => {
    const download = { contentType: 'application/octet-stream', kind: 'other' };
    expect(await sniffContent(bytes('%PDF-1.4 <html><script>alert(1)</script>'), 'doc.pdf')).toEqual(
      download,
    );
    expect(await sniffContent(bytes('<!DOCTYPE html><p>hi'), 'photo.png')).toEqual(download);
    expect(await sniffContent(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.txt')).toEqual(download);
    expect(await sniffContent(bytes('alert(1)'), 'run.js')).toEqual(download);
  });

  it('names other binary formats with file-type, and serves them as downloads', async () => {
    const sevenZip = bytes([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4], new Array<number>(24).fill(0));
    expect(await sniffContent(sevenZip, 'archive.7z')).toEqual({
      contentType: 'application/x-7z-compressed',
      kind: 'other',
    });
    const mp4 = bytes(
      [0, 0, 0, 0x20],
      'ftypisom',
      [0, 0, 2, 0],
      'isomiso2avc1mp41',
      new Array<number>(32).fill(0),
    );
    expect(await sniffContent(mp4, 'clip.mp4')).toEqual({ contentType: 'video/mp4', kind: 'other' });
    const gzip = bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3], new Array<number>(16).fill(0));
    expect(await sniffContent(gzip, 'a.gz')).toEqual({ contentType: 'application/gzip', kind: 'other' });
    expect(await sniffContent(bytes([0, 1, 2, 3, 0xff, 0xfe, 0x80]), 'blob')).toEqual({
      contentType: 'application/octet-stream',
      kind: 'other',
    });
  });
});

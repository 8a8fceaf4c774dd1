import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, readMultipartRelated } from './multipart-related';

/** Feeds the body in chunks of `size` bytes, so delimiters straddle chunk edges. */
async function* chunked(body: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < body.length; offset += size) yield body.subarray(offset, offset + size);
}

async function parse(body: Buffer, boundary: string, chunkSize: number) {
  const upload = await readMultipartRelated(chunked(body, chunkSize), boundary, 1024);
  const parts: Buffer[] = [];
  for await (const part of upload.file) parts.push(part);
  return { metadata: upload.metadata.toString(), type: upload.fileContentType, file: Buffer.concat(parts) };
}

const sdkBody = (boundary: string, file: Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n{"name":"a"}\r\n` +
        `--${boundary}\r\nContent-Type: image/png\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--`),
  ]);

describe('readMultipartRelated', () => {
  // Binary content that contains CR LF, dashes and a near-miss of the delimiter.
  const file = Buffer.concat([Buffer.from('\r\n--12345\r\n-\r\n--1234'), Buffer.from([0, 255, 13, 10])]);

  it.each([1, 2, 3, 7, 64, 100_000])('parses the SDK body fed in %i-byte chunks', async (size) => {
    expect(await parse(sdkBody('123456', file), '123456', size)).toEqual({
      metadata: '{"name":"a"}',
      type: 'image/png',
      file,
    });
  });

  it('parses an empty file', async () => {
    expect((await parse(sdkBody('b', Buffer.alloc(0)), 'b', 5)).file.length).toBe(0);
  });

  it('ignores a preamble and an epilogue', async () => {
    const body = Buffer.concat([
      Buffer.from('preamble\r\n'),
      sdkBody('xyz', file),
      Buffer.from('\r\nepilogue'),
    ]);
    expect((await parse(body, 'xyz', 4)).file).toEqual(file);
  });

  it('refuses a third part, a missing end and a lone part', async () => {
    const third = Buffer.from('--b\r\n\r\n{}\r\n--b\r\n\r\nx\r\n--b\r\n\r\ny\r\n--b--');
    await expect(parse(third, 'b', 3)).rejects.toBeInstanceOf(MultipartError);
    const noEnd = Buffer.from('--b\r\n\r\n{}\r\n--b\r\n\r\nxyz');
    await expect(parse(noEnd, 'b', 3)).rejects.toBeInstanceOf(MultipartError);
    const lone = Buffer.from('--b\r\n\r\n{}\r\n--b--');
    await expect(parse(lone, 'b', 3)).rejects.toBeInstanceOf(MultipartError);
  });

  it('refuses metadata over its limit', async () => {
    const body = sdkBody('b', file)
      .toString()
      .replace('{"name":"a"}', `"${'x'.repeat(5000)}"`);
    await expect(parse(Buffer.from(body), 'b', 100)).rejects.toBeInstanceOf(MultipartError);
  });
});

describe('boundaryOf', () => {
  it('reads the boundary, quoted or not', () => {
    expect(boundaryOf('multipart/related; boundary=123')).toBe('123');
    expect(boundaryOf('Multipart/Related; charset=x; boundary="a b"')).toBe('a b');
  });
  it('refuses other types and a missing boundary', () => {
    expect(boundaryOf('multipart/form-data; boundary=1')).toBe(null);
    expect(boundaryOf('multipart/related')).toBe(null);
    expect(boundaryOf(undefined)).toBe(null);
  });
});

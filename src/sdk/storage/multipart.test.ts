import { describe, expect, it } from 'vitest';
import { FakeStorageServer } from './fake-server.testing';
import { metadataFromResource, uploadMetadataJson, writableJson } from './metadata';
import { makeBoundary, multipartBody } from './multipart';
import { uploadBytes } from './operations';
import { ref } from './reference';
import { createStorage } from './service';

describe('multipart body (docs/storage-protocol.md §4.7)', () => {
  it('is byte for byte the firebase layout, with binary bytes untouched and no trailing CRLF', async () => {
    const file = new Uint8Array([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x80]);
    const body = multipartBody('123456', '{"name":"a","contentType":"x/y"}', 'x/y', file);
    const bytes = new Uint8Array(await body.arrayBuffer());
    const expected = Buffer.concat([
      Buffer.from(
        '--123456\r\n' +
          'Content-Type: application/json; charset=utf-8\r\n\r\n' +
          '{"name":"a","contentType":"x/y"}\r\n' +
          '--123456\r\n' +
          'Content-Type: x/y\r\n\r\n',
      ),
      Buffer.from(file),
      Buffer.from('\r\n--123456--'),
    ]);
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
  });

  it('uses two Math.random digit strings as the boundary', () => {
    const values = [0.123, 0.4567];
    expect(makeBoundary(() => values.shift() ?? 0)).toBe('1234567');
    expect(makeBoundary()).toMatch(/^\d{10,40}$/);
  });

  it('uploadBytes sends the body with X-Goog-Upload-Protocol: multipart and the boundary in Content-Type', async () => {
    const server = new FakeStorageServer();
    const storage = createStorage({ baseUrl: server.origin, bucket: 'bkt', fetch: server.fetch });
    const blob = new Blob(['hello'], { type: 'text/plain' });
    await uploadBytes(ref(storage, 'dir/hello world.txt'), blob, {
      cacheControl: 'no-cache',
      customMetadata: { a: '1' },
    });
    const request = server.requests[0];
    expect(request?.url.toString()).toBe('http://storage.test/v0/b/bkt/o?name=dir%2Fhello%20world.txt');
    expect(request?.headers.get('x-goog-upload-protocol')).toBe('multipart');
    const boundary = /^multipart\/related; boundary=(\d+)$/.exec(
      request?.headers.get('content-type') ?? '',
    )?.[1];
    expect(boundary).toBeDefined();
    expect(new TextDecoder().decode(request?.body)).toBe(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n` +
        '{"name":"dir/hello world.txt","cacheControl":"no-cache","contentType":"text/plain","metadata":{"a":"1"}}\r\n' +
        `--${boundary}\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--`,
    );
    expect(server.objects.get('bkt/dir/hello world.txt')?.bytes).toEqual(new TextEncoder().encode('hello'));
  });
});

describe('metadata JSON (docs/storage-protocol.md §3)', () => {
  it('writes upload metadata in the firebase key order, content type always present', () => {
    expect(uploadMetadataJson('notoken/a', undefined, '').json).toBe(
      '{"name":"notoken/a","contentType":"application/octet-stream"}',
    );
    // The caller's type wins over the Blob's, which wins over the default.
    expect(uploadMetadataJson('a', { contentType: 'text/html' }, 'image/png').contentType).toBe('text/html');
    expect(uploadMetadataJson('a', {}, 'image/png').contentType).toBe('image/png');
    expect(
      uploadMetadataJson(
        'a',
        {
          customMetadata: { k: 'v' },
          contentLanguage: 'en',
          contentEncoding: 'gzip',
          contentDisposition: 'inline',
          cacheControl: 'c',
          md5Hash: 'h',
        },
        '',
      ).json,
    ).toBe(
      '{"name":"a","md5Hash":"h","cacheControl":"c","contentDisposition":"inline","contentEncoding":"gzip",' +
        '"contentLanguage":"en","contentType":"application/octet-stream","metadata":{"k":"v"}}',
    );
  });

  it('keeps null (remove) and drops undefined in a PATCH body', () => {
    expect(
      writableJson({ cacheControl: null, customMetadata: { a: null, b: '2' }, contentLanguage: 'en' }),
    ).toBe('{"cacheControl":null,"contentLanguage":"en","metadata":{"a":null,"b":"2"}}');
  });

  it('reads a resource into the client metadata object', () => {
    expect(
      metadataFromResource({
        name: 'dir/a.txt',
        bucket: 'b',
        generation: '12',
        metageneration: '1',
        size: '42',
        timeCreated: 't',
        updated: 'u',
        md5Hash: 'm',
        contentType: 'text/plain',
        contentEncoding: 'identity',
        contentDisposition: 'inline',
        metadata: { k: 'v' },
        downloadTokens: 'tok',
        etag: 'e',
      }),
    ).toEqual({
      type: 'file',
      bucket: 'b',
      generation: '12',
      metageneration: '1',
      fullPath: 'dir/a.txt',
      name: 'a.txt',
      size: 42,
      timeCreated: 't',
      updated: 'u',
      md5Hash: 'm',
      cacheControl: undefined,
      contentDisposition: 'inline',
      contentEncoding: 'identity',
      contentLanguage: undefined,
      contentType: 'text/plain',
      customMetadata: { k: 'v' },
    });
    expect(metadataFromResource({ bucket: 'b' })).toBeNull();
  });
});

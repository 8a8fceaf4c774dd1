import { describe, expect, it } from 'vitest';
import { FakeStorageServer } from './fake-server.testing';
import { deleteObject, getDownloadURL, getMetadata, list, listAll, updateMetadata } from './operations';
import { ref } from './reference';
import { createStorage } from './service';

function setUp() {
  const server = new FakeStorageServer();
  const storage = createStorage({
    baseUrl: server.origin,
    bucket: 'my.bucket',
    getToken: async () => 'tok',
    fetch: server.fetch,
  });
  return { server, storage };
}

const json = (value: unknown) =>
  new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });

describe('list (docs/storage-protocol.md §4.6)', () => {
  it.each([
    [
      0,
      "Firebase Storage: Invalid value for 'options.maxResults'. Expected 1 or greater. (storage/invalid-argument)",
    ],
    [
      -3,
      "Firebase Storage: Invalid value for 'options.maxResults'. Expected 1 or greater. (storage/invalid-argument)",
    ],
    [
      1001,
      "Firebase Storage: Invalid value for 'options.maxResults'. Expected 1000 or less. (storage/invalid-argument)",
    ],
    [
      2.5,
      "Firebase Storage: Invalid value for 'options.maxResults'. Expected an integer. (storage/invalid-argument)",
    ],
  ])('refuses maxResults %d before sending anything', async (maxResults, message) => {
    const { server, storage } = setUp();
    await expect(list(ref(storage, 'dir'), { maxResults })).rejects.toMatchObject({
      code: 'storage/invalid-argument',
      message,
      status: 0,
    });
    expect(server.requests).toHaveLength(0);
  });

  it('sends prefix, delimiter, pageToken, maxResults in that order; prefix empty for the root', async () => {
    const { server, storage } = setUp();
    server.intercept = () => json({});
    await list(ref(storage, 'a b/c'), { maxResults: 1000, pageToken: 'p+/=' });
    await list(ref(storage));
    await list(ref(storage, 'x'), { maxResults: 1 });
    expect(server.requests.map((request) => request.url.toString())).toEqual([
      'http://storage.test/v0/b/my.bucket/o?prefix=a%20b%2Fc%2F&delimiter=%2F&pageToken=p%2B%2F%3D&maxResults=1000',
      'http://storage.test/v0/b/my.bucket/o?prefix=&delimiter=%2F',
      'http://storage.test/v0/b/my.bucket/o?prefix=x%2F&delimiter=%2F&maxResults=1',
    ]);
    expect(server.requests[0]?.headers.get('authorization')).toBe('Firebase tok');
  });

  it('makes refs of items and prefixes (one trailing slash stripped) in the requested bucket', async () => {
    const { server, storage } = setUp();
    server.intercept = () =>
      json({
        prefixes: ['dir/sub/'],
        items: [{ name: 'dir/a.txt', bucket: 'elsewhere' }],
        nextPageToken: 'next',
      });
    const page = await list(ref(storage, 'dir'));
    expect(page.prefixes.map((p) => [p.bucket, p.fullPath])).toEqual([['my.bucket', 'dir/sub']]);
    expect(page.items.map((p) => [p.bucket, p.fullPath])).toEqual([['my.bucket', 'dir/a.txt']]);
    expect(page.nextPageToken).toBe('next');
  });

  it('listAll follows nextPageToken and sends no maxResults; stops at a missing or empty token', async () => {
    const { server, storage } = setUp();
    const pages: Record<string, unknown> = {
      '': { items: [{ name: 'd/1' }], prefixes: ['d/x/'], nextPageToken: 't1' },
      t1: { items: [{ name: 'd/2' }], nextPageToken: 't2' },
      t2: { items: [{ name: 'd/3' }], nextPageToken: '' },
    };
    server.intercept = (request) => json(pages[request.url.searchParams.get('pageToken') ?? '']);
    const all = await listAll(ref(storage, 'd'));
    expect(all.items.map((item) => item.fullPath)).toEqual(['d/1', 'd/2', 'd/3']);
    expect(all.prefixes.map((prefix) => prefix.fullPath)).toEqual(['d/x']);
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((request) => !request.url.searchParams.has('maxResults'))).toBe(true);
  });
});

describe('getDownloadURL (docs/storage-protocol.md §4.2)', () => {
  it('GETs the metadata and builds the URL from the first token, the body bucket and name', async () => {
    const { server, storage } = setUp();
    server.putObject('my.bucket', 'dir/100% naïve.txt', new Uint8Array(1), { downloadTokens: 'a+b,c' });
    const url = await getDownloadURL(ref(storage, 'dir/100% naïve.txt'));
    expect(server.requests[0]?.method).toBe('GET');
    expect(server.requests[0]?.url.pathname).toBe('/v0/b/my.bucket/o/dir%2F100%25%20na%C3%AFve.txt');
    expect(url).toBe(
      'http://storage.test/v0/b/my.bucket/o/dir%2F100%25%20na%C3%AFve.txt?alt=media&token=a%2Bb',
    );
  });

  it.each([[undefined], [''], [['a', 'b']]])('no-download-url when downloadTokens is %j', async (tokens) => {
    const { server, storage } = setUp();
    server.intercept = () => json({ name: 'x', bucket: 'my.bucket', downloadTokens: tokens });
    await expect(getDownloadURL(ref(storage, 'x'))).rejects.toMatchObject({
      code: 'storage/no-download-url',
      message: 'Firebase Storage: The given file does not have any download URLs. (storage/no-download-url)',
    });
  });
});

describe('metadata and delete', () => {
  it('updateMetadata PATCHes the writable JSON and returns the new metadata with a ref', async () => {
    const { server, storage } = setUp();
    server.intercept = (request) =>
      request.method === 'PATCH'
        ? json({ name: 'a/b', bucket: 'my.bucket', size: '3', contentLanguage: 'en', metadata: { b: '2' } })
        : undefined;
    const metadata = await updateMetadata(ref(storage, 'a/b'), {
      cacheControl: null,
      customMetadata: { a: null, b: '2' },
      contentLanguage: 'en',
    });
    const request = server.requests[0];
    expect(request?.method).toBe('PATCH');
    expect(request?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(new TextDecoder().decode(request?.body)).toBe(
      '{"cacheControl":null,"contentLanguage":"en","metadata":{"a":null,"b":"2"}}',
    );
    expect(metadata).toMatchObject({ fullPath: 'a/b', name: 'b', size: 3, customMetadata: { b: '2' } });
    expect(metadata.ref?.fullPath).toBe('a/b');
    expect(Object.keys(metadata)).not.toContain('ref');
  });

  it('deleteObject accepts 204, then getMetadata says object-not-found', async () => {
    const { server, storage } = setUp();
    server.putObject('my.bucket', 'gone', new Uint8Array(1));
    await deleteObject(ref(storage, 'gone'));
    expect(server.requests[0]?.method).toBe('DELETE');
    await expect(getMetadata(ref(storage, 'gone'))).rejects.toMatchObject({
      code: 'storage/object-not-found',
      message: "Firebase Storage: Object 'gone' does not exist. (storage/object-not-found)\nNot Found",
    });
  });
});

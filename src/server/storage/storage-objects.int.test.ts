import { beforeAll, describe, expect, it } from 'vitest';
import { messages, THUMBNAIL_MAX_BYTES } from '../../common';
import { storageErrorTexts } from '../../common/storage-errors';
import { makePng, SVG_IMAGE } from '../../../test/support/fixtures';
import type { TestServer } from '../../../test/support/test-server';
import {
  asBody,
  bucketUrl,
  deleteObject,
  md5Base64,
  multipartBody,
  objectUrl,
  putObject,
  sha256,
  signUpStorageUser,
  testBytes,
  uploadMultipart,
  type StorageTestUser,
  useStorageSuite,
  storedIds,
  withBlobStore,
} from './testing/storage-http';

let server: TestServer;

const blobKeys = (): Promise<string[]> => withBlobStore(server, (blobs) => storedIds(blobs.listBlobs()));
let alice: StorageTestUser;
let bob: StorageTestUser;

useStorageSuite((suite) => ({ server, alice, bob } = suite));

const errorOf = async (response: Response) =>
  (await response.json()) as { error: { code: number; message: string } };

describe('multipart upload (POST /v0/b/{bucket}/o, X-Goog-Upload-Protocol: multipart)', () => {
  it('stores the bytes and answers the full object resource with a download token', async () => {
    const name = `files/${alice.uid}/report.bin`;
    const bytes = testBytes(5000);
    const response = await uploadMultipart(server.url, name, bytes, {
      headers: alice.auth,
      contentType: 'application/pdf',
      metadata: { cacheControl: 'no-cache', contentLanguage: 'en', metadata: { a: '1', n: 2 } },
    });
    expect(response.status).toBe(200);
    const resource = (await response.json()) as Record<string, unknown>;
    expect(resource).toMatchObject({
      name,
      bucket: 'dojo',
      size: '5000',
      md5Hash: md5Base64(bytes),
      metageneration: '1',
      contentType: 'application/pdf',
      contentEncoding: 'identity',
      contentDisposition: 'inline',
      cacheControl: 'no-cache',
      contentLanguage: 'en',
      metadata: { a: '1', n: '2' },
    });
    expect(resource.generation).toMatch(/^\d+$/);
    expect(resource.timeCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(typeof resource.downloadTokens).toBe('string');
    expect(resource.downloadTokens).not.toBe('');

    const metadata = await fetch(objectUrl(server.url, name), { headers: alice.auth });
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual(resource);

    const download = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: alice.auth });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  });

  it('stores a thumbnail as the type its bytes prove, whatever was declared', async () => {
    const resource = await putObject(server.url, `thumbnails/${alice.uid}/me.jpg`, makePng(), {
      headers: alice.auth,
      contentType: 'image/jpeg',
    });
    expect(resource.contentType).toBe('image/png');
  });

  it('accepts a thumbnail of exactly 100000 bytes', async () => {
    const response = await uploadMultipart(
      server.url,
      `thumbnails/${alice.uid}/edge.png`,
      makePng(THUMBNAIL_MAX_BYTES),
      { headers: alice.auth, contentType: 'image/png' },
    );
    expect(response.status).toBe(200);
  });

  it('replaces an object with one complete new version', async () => {
    const name = `files/${alice.uid}/replace.bin`;
    const first = await putObject(server.url, name, testBytes(3000, 1), { headers: alice.auth });
    const second = await putObject(server.url, name, testBytes(2000, 2), { headers: alice.auth });
    expect(second.generation).not.toBe(first.generation);
    expect(second.downloadTokens).not.toBe(first.downloadTokens);
    const download = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: alice.auth });
    expect(Buffer.from(await download.arrayBuffer()).equals(testBytes(2000, 2))).toBe(true);
  });

  it('leaves one complete version when two uploads race for one name', async () => {
    const name = `files/${alice.uid}/race.bin`;
    const versions = [testBytes(150_000, 11), testBytes(120_000, 12), testBytes(90_000, 13)];
    const responses = await Promise.all(
      versions.map((bytes) => uploadMultipart(server.url, name, bytes, { headers: alice.auth })),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const metadata = (await (await fetch(objectUrl(server.url, name), { headers: alice.auth })).json()) as {
      md5Hash: string;
      size: string;
    };
    const download = Buffer.from(
      await (await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: alice.auth })).arrayBuffer(),
    );
    const winner = versions.find((bytes) => bytes.equals(download));
    expect(winner).toBeDefined();
    expect(metadata.md5Hash).toBe(md5Base64(winner!));
    expect(metadata.size).toBe(String(winner!.length));
  });

  it("refuses a write into someone else's folder (403)", async () => {
    const response = await uploadMultipart(server.url, `files/${bob.uid}/x.txt`, testBytes(10), {
      headers: alice.auth,
    });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).error.code).toBe(403);
    const thumbnail = await uploadMultipart(server.url, `thumbnails/${bob.uid}/x.png`, makePng(), {
      headers: alice.auth,
      contentType: 'image/png',
    });
    expect(thumbnail.status).toBe(403);
  });

  it('keeps the connection usable after refusing a large body it did not read', async () => {
    for (let round = 0; round < 3; round += 1) {
      const refused = await uploadMultipart(
        server.url,
        `files/${bob.uid}/big-${round}.bin`,
        testBytes(600_000),
        {
          headers: alice.auth,
        },
      );
      expect(refused.status).toBe(403);
      const next = await uploadMultipart(server.url, `files/${alice.uid}/after-${round}.bin`, testBytes(10), {
        headers: alice.auth,
      });
      expect(next.status).toBe(200);
    }
  });

  it.each([['public/x.txt'], ['x.txt'], [`files/${'u'}`], ['avatars/uid/x.png']])(
    'refuses a write outside thumbnails/{uid}/ and files/{uid}/: %s (403)',
    async (name) => {
      const response = await uploadMultipart(server.url, name, testBytes(10), { headers: alice.auth });
      expect(response.status).toBe(403);
    },
  );

  it('refuses a thumbnail that is not a raster image by its bytes, even declared image/png (403)', async () => {
    for (const bytes of [Buffer.from('not an image at all'), SVG_IMAGE]) {
      const response = await uploadMultipart(server.url, `thumbnails/${alice.uid}/fake.png`, bytes, {
        headers: alice.auth,
        contentType: 'image/png',
      });
      expect(response.status).toBe(403);
    }
    const missing = await fetch(objectUrl(server.url, `thumbnails/${alice.uid}/fake.png`), {
      headers: alice.auth,
    });
    expect(missing.status).toBe(404);
  });

  it('refuses a thumbnail over 100000 bytes (403)', async () => {
    const response = await uploadMultipart(
      server.url,
      `thumbnails/${alice.uid}/big.png`,
      makePng(THUMBNAIL_MAX_BYTES + 1),
      { headers: alice.auth, contentType: 'image/png' },
    );
    expect(response.status).toBe(403);
  });

  it('refuses an upload without a user (401) with the spec message', async () => {
    const response = await uploadMultipart(server.url, `files/${alice.uid}/anon.txt`, testBytes(10));
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toEqual({
      error: { code: 401, message: storageErrorTexts.unauthenticated, requestId: expect.any(String) },
    });
  });

  it('checks md5Hash when the client sends one', async () => {
    const bytes = testBytes(100);
    const wrong = await uploadMultipart(server.url, `files/${alice.uid}/md5.bin`, bytes, {
      headers: alice.auth,
      metadata: { md5Hash: md5Base64(testBytes(100, 9)) },
    });
    expect(wrong.status).toBe(400);
    const right = await uploadMultipart(server.url, `files/${alice.uid}/md5.bin`, bytes, {
      headers: alice.auth,
      metadata: { md5Hash: md5Base64(bytes) },
    });
    expect(right.status).toBe(200);
  });

  it('never lets a client choose download tokens', async () => {
    const resource = await putObject(server.url, `files/${alice.uid}/tokens.txt`, testBytes(10), {
      headers: alice.auth,
      metadata: { metadata: { firebaseStorageDownloadTokens: 'guessable', keep: 'yes' } },
    });
    expect(resource.downloadTokens).not.toContain('guessable');
    expect(resource.metadata).toEqual({ keep: 'yes' });
  });

  const malformed: [string, (boundary: string) => Buffer][] = [
    ['one part only', (b) => Buffer.from(`--${b}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${b}--`)],
    [
      'three parts',
      (b) =>
        Buffer.from(
          `--${b}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${b}\r\nContent-Type: text/plain\r\n\r\nhi\r\n--${b}\r\n\r\nmore\r\n--${b}--`,
        ),
    ],
    [
      'no closing delimiter',
      (b) => Buffer.from(`--${b}\r\nContent-Type: application/json\r\n\r\n{}\r\n--${b}\r\n\r\nhi`),
    ],
    [
      'metadata that is not JSON',
      (b) => Buffer.from(`--${b}\r\n\r\nnot json\r\n--${b}\r\n\r\nhi\r\n--${b}--`),
    ],
  ];
  /** A multipart upload of Alice's with the body and content-type as given, however malformed. */
  const postMultipart = (contentType: string, body: Uint8Array) =>
    fetch(`${bucketUrl(server.url)}?name=${encodeURIComponent(`files/${alice.uid}/m.txt`)}`, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Protocol': 'multipart', 'content-type': contentType },
      body: asBody(body),
    });

  it.each(malformed)('refuses a multipart body with %s (400)', async (_label, build) => {
    const boundary = '1234567890';
    const response = await postMultipart(`multipart/related; boundary=${boundary}`, build(boundary));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe(400);
  });

  it('refuses a multipart upload without a boundary (400)', async () => {
    const { body } = multipartBody({}, testBytes(3), 'text/plain', 'abc');
    const response = await postMultipart('multipart/related', body);
    expect(response.status).toBe(400);
  });

  it('takes a multipart body well over the JSON API body limit (1 MiB)', async () => {
    const bytes = testBytes(3 * 1024 * 1024 + 17);
    const resource = await putObject(server.url, `files/${alice.uid}/big.bin`, bytes, {
      headers: alice.auth,
    });
    expect(resource.md5Hash).toBe(md5Base64(bytes));
  });

  it('accepts a media upload (raw body) from other clients', async () => {
    const name = `files/${alice.uid}/media.txt`;
    const response = await fetch(
      `${bucketUrl(server.url)}?uploadType=media&name=${encodeURIComponent(name)}`,
      {
        method: 'POST',
        headers: { ...alice.auth, 'content-type': 'text/plain' },
        body: 'hello media',
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name, contentType: 'text/plain', size: '11' });
  });
});

describe('object names', () => {
  it.each([
    ['hello world.txt'],
    ['100% done.txt'],
    ['dir/sub/deep.txt'],
    ['naïve – 東京.txt'],
    ['a+b=c&d?.txt'],
  ])('round-trips %s through upload, metadata, download and list', async (leaf) => {
    const name = `files/${alice.uid}/names/${leaf}`;
    const bytes = testBytes(64, leaf.length);
    const resource = await putObject(server.url, name, bytes, { headers: alice.auth });
    expect(resource.name).toBe(name);
    const metadata = await fetch(objectUrl(server.url, name), { headers: alice.auth });
    expect(((await metadata.json()) as { name: string }).name).toBe(name);
    const download = await fetch(
      `${objectUrl(server.url, name)}?alt=media&token=${encodeURIComponent(String(resource.downloadTokens))}`,
    );
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const list = await fetch(
      `${bucketUrl(server.url)}?prefix=${encodeURIComponent(`files/${alice.uid}/names/`)}`,
      { headers: alice.auth },
    );
    const items = ((await list.json()) as { items: { name: string }[] }).items.map((item) => item.name);
    expect(items).toContain(name);
  });

  it('decodes the name exactly once: %2F inside a name stays a literal %2F', async () => {
    const name = `files/${alice.uid}/literal%2Fslash.txt`;
    await putObject(server.url, name, testBytes(5), { headers: alice.auth });
    const metadata = await fetch(objectUrl(server.url, name), { headers: alice.auth });
    expect(((await metadata.json()) as { name: string }).name).toBe(name);
    const other = await fetch(objectUrl(server.url, `files/${alice.uid}/literal/slash.txt`), {
      headers: alice.auth,
    });
    expect(other.status).toBe(404);
  });

  it.each([['a//b'], ['../x'], ['x/../y'], ['ctl\u0001char'], ['trailing/']])(
    'refuses the invalid name %j (400) on every operation',
    async (leaf) => {
      const name = `files/${alice.uid}/${leaf}`;
      const upload = await uploadMultipart(server.url, name, testBytes(3), { headers: alice.auth });
      expect(upload.status).toBe(400);
      const get = await fetch(objectUrl(server.url, name), { headers: alice.auth });
      expect(get.status).toBe(400);
      const patch = await fetch(objectUrl(server.url, name), {
        method: 'PATCH',
        headers: alice.auth,
        body: '{}',
      });
      expect(patch.status).toBe(400);
      const del = await deleteObject(server.url, name, { headers: alice.auth });
      expect(del.status).toBe(400);
      expect((await errorOf(del)).error.code).toBe(400);
    },
  );

  it('refuses a malformed percent escape (400)', async () => {
    const response = await fetch(`${bucketUrl(server.url)}/files%2F%E0%A4%A`, { headers: alice.auth });
    expect(response.status).toBe(400);
  });
});

describe('metadata (GET /v0/b/{bucket}/o/{path})', () => {
  let name: string;
  beforeAll(async () => {
    name = `files/${alice.uid}/meta.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth });
  });

  it('answers any signed-in user (200), by token or by cookie', async () => {
    expect((await fetch(objectUrl(server.url, name), { headers: bob.auth })).status).toBe(200);
    expect(
      (await fetch(objectUrl(server.url, name), { headers: { authorization: `Bearer ${bob.idToken}` } }))
        .status,
    ).toBe(200);
    expect((await fetch(objectUrl(server.url, name), { headers: { cookie: bob.cookie } })).status).toBe(200);
  });

  it('refuses a request without a user (401) and with a bad token (401)', async () => {
    const anonymous = await fetch(objectUrl(server.url, name));
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).error.message).toBe(storageErrorTexts.unauthenticated);
    expect(
      (await fetch(objectUrl(server.url, name), { headers: { authorization: 'Firebase nope' } })).status,
    ).toBe(401);
  });

  it('answers 404 for a missing object', async () => {
    const response = await fetch(objectUrl(server.url, `files/${alice.uid}/missing.txt`), {
      headers: alice.auth,
    });
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toEqual({
      error: {
        code: 404,
        message: `Object 'files/${alice.uid}/missing.txt' does not exist.`,
        requestId: expect.any(String),
      },
    });
  });

  it('ignores a session cookie sent from another origin (CSRF), but not a token', async () => {
    const cookie = await fetch(objectUrl(server.url, name), {
      headers: { cookie: alice.cookie, origin: 'https://evil.example' },
    });
    expect(cookie.status).toBe(401);
    const token = await fetch(objectUrl(server.url, name), {
      headers: { ...alice.auth, origin: 'https://other-app.example' },
    });
    expect(token.status).toBe(200);
  });
});

describe('download (alt=media)', () => {
  const bytes = testBytes(1000, 7);
  let name: string;
  let token: string;
  beforeAll(async () => {
    name = `files/${alice.uid}/download.bin`;
    const resource = await putObject(server.url, name, bytes, {
      headers: alice.auth,
      contentType: 'text/html',
    });
    token = String(resource.downloadTokens);
  });
  const mediaUrl = () => `${objectUrl(server.url, name)}?alt=media`;

  it('serves the bytes with the download token and no user', async () => {
    const response = await fetch(`${mediaUrl()}&token=${encodeURIComponent(token)}`);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    // Uploaded HTML is never rendered as a page of ours.
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the bytes to a signed-in user by cookie', async () => {
    const response = await fetch(mediaUrl(), { headers: { cookie: bob.cookie } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses without a token or a user (401), and with a wrong token (401)', async () => {
    expect((await fetch(mediaUrl())).status).toBe(401);
    expect((await fetch(`${mediaUrl()}&token=00000000-0000-4000-8000-000000000000`)).status).toBe(401);
  });

  it('serves a Range as 206 with Content-Range', async () => {
    const response = await fetch(`${mediaUrl()}&token=${token}`, { headers: { range: 'bytes=10-19' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    const getBytes = await fetch(`${mediaUrl()}&token=${token}`, { headers: { range: 'bytes=0-4999' } });
    expect(getBytes.status).toBe(206);
    expect(getBytes.headers.get('content-range')).toBe('bytes 0-999/1000');
  });

  it('answers an unsatisfiable Range with 416', async () => {
    const response = await fetch(`${mediaUrl()}&token=${token}`, { headers: { range: 'bytes=5000-6000' } });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */1000');
  });

  it('answers a JSON error, not a half-described download, when the stored bytes are gone', async () => {
    const before = new Set(await blobKeys());
    const lostName = `files/${alice.uid}/lost.png`;
    const lost = await putObject(server.url, lostName, makePng(), {
      headers: alice.auth,
      contentType: 'image/png',
    });
    const added = (await blobKeys()).filter((key) => !before.has(key));
    expect(added).toHaveLength(1);
    await withBlobStore(server, (blobs) => blobs.delete(added[0] ?? ''));

    const response = await fetch(
      `${objectUrl(server.url, lostName)}?alt=media&token=${String(lost.downloadTokens)}`,
    );
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(response.headers.get('x-goog-hash')).toBeNull();
    expect(await response.json()).toEqual({
      error: { code: 500, message: messages.internal, requestId: expect.any(String) },
    });
  });
});

describe('metadata update (PATCH)', () => {
  it('merges custom metadata, removes null fields and keys, and bumps metageneration', async () => {
    const name = `files/${alice.uid}/patch.txt`;
    const created = await putObject(server.url, name, testBytes(10), {
      headers: alice.auth,
      contentType: 'text/plain',
      metadata: { cacheControl: 'no-cache', contentLanguage: 'fr', metadata: { a: '1', b: '1' } },
    });
    const response = await fetch(objectUrl(server.url, name), {
      method: 'PATCH',
      headers: { ...alice.auth, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({
        name: 'files/elsewhere/renamed.txt',
        cacheControl: null,
        contentLanguage: 'en',
        metadata: { a: null, b: '2', c: 3 },
      }),
    });
    expect(response.status).toBe(200);
    const updated = (await response.json()) as Record<string, unknown>;
    expect(updated).toMatchObject({
      name,
      contentType: 'text/plain',
      contentLanguage: 'en',
      metadata: { b: '2', c: '3' },
      metageneration: '2',
      generation: created.generation,
      md5Hash: created.md5Hash,
      downloadTokens: created.downloadTokens,
    });
    expect(updated).not.toHaveProperty('cacheControl');
    expect(await (await fetch(objectUrl(server.url, name), { headers: bob.auth })).json()).toEqual(updated);

    const cleared = await fetch(objectUrl(server.url, name), {
      method: 'PATCH',
      headers: alice.auth,
      body: JSON.stringify({ metadata: null, contentType: null }),
    });
    const clearedBody = (await cleared.json()) as Record<string, unknown>;
    expect(clearedBody).not.toHaveProperty('metadata');
    expect(clearedBody).toMatchObject({ metageneration: '3', contentType: 'application/octet-stream' });
  });

  it("refuses another user's object (403), no user (401), a missing object (404) and a bad body (400)", async () => {
    const name = `files/${alice.uid}/patch-guard.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth });
    const patch = (headers: Record<string, string>, target = name, body = '{"metadata":{"x":"1"}}') =>
      fetch(objectUrl(server.url, target), { method: 'PATCH', headers, body });
    expect((await patch(bob.auth)).status).toBe(403);
    expect((await patch({})).status).toBe(401);
    expect((await patch(alice.auth, `files/${alice.uid}/nothing-here.txt`)).status).toBe(404);
    expect((await patch(alice.auth, name, '{not json')).status).toBe(400);
    expect((await patch(alice.auth, name, '{"metadata":"no"}')).status).toBe(400);
  });

  it("keeps a thumbnail's proven content type (403 on a change)", async () => {
    const name = `thumbnails/${alice.uid}/patch.png`;
    await putObject(server.url, name, makePng(), { headers: alice.auth, contentType: 'image/png' });
    const response = await fetch(objectUrl(server.url, name), {
      method: 'PATCH',
      headers: alice.auth,
      body: JSON.stringify({ contentType: 'text/html' }),
    });
    expect(response.status).toBe(403);
    const fine = await fetch(objectUrl(server.url, name), {
      method: 'PATCH',
      headers: alice.auth,
      body: JSON.stringify({ metadata: { alt: 'me' } }),
    });
    expect(fine.status).toBe(200);
  });
});

describe('delete', () => {
  it('deletes (204), then answers 404', async () => {
    const name = `files/${alice.uid}/delete-me.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth });
    const first = await deleteObject(server.url, name, { headers: alice.auth });
    expect(first.status).toBe(204);
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(404);
    const second = await deleteObject(server.url, name, { headers: alice.auth });
    expect(second.status).toBe(404);
  });

  it("refuses another user's object (403) and no user (401)", async () => {
    const name = `files/${alice.uid}/keep-me.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth });
    expect((await deleteObject(server.url, name, { headers: bob.auth })).status).toBe(403);
    expect((await deleteObject(server.url, name)).status).toBe(401);
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(200);
  });

  it('lets a user delete their own signup thumbnail', async () => {
    const user = await signUpStorageUser(server.url);
    const list = await fetch(
      `${bucketUrl(server.url)}?prefix=${encodeURIComponent(`thumbnails/${user.uid}/`)}`,
      {
        headers: user.auth,
      },
    );
    const [item] = ((await list.json()) as { items: { name: string }[] }).items;
    expect(item?.name).toBe(`thumbnails/${user.uid}/avatar.png`);
    const response = await deleteObject(server.url, item!.name, { headers: user.auth });
    expect(response.status).toBe(204);
  });
});

describe('CORS (docs/storage-protocol.md §1.5)', () => {
  it('answers a preflight reflecting Origin and the requested headers', async () => {
    const response = await fetch(objectUrl(server.url, 'files/x/y.txt'), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,x-goog-upload-command,x-firebase-appcheck',
        'access-control-request-private-network': 'true',
      },
    });
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'authorization,x-goog-upload-command,x-firebase-appcheck',
    );
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(/,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD']));
    // Private network access is only for PUBLIC_URL's origin (storage-private-network.int.test.ts).
    expect(response.headers.get('access-control-allow-private-network')).toBeNull();
  });

  it('puts Allow-Origin, the exposed upload headers and CORP cross-origin on every response', async () => {
    const responses = [
      await fetch(objectUrl(server.url, `files/${alice.uid}/missing`), {
        headers: { ...alice.auth, origin: 'https://app.example' },
      }),
      await fetch(bucketUrl(server.url), { headers: { origin: 'https://app.example' } }),
      await uploadMultipart(server.url, `files/${alice.uid}/cors.txt`, testBytes(3), {
        headers: { ...alice.auth, origin: 'https://app.example' },
      }),
    ];
    expect(responses.map((response) => response.status)).toEqual([404, 401, 200]);
    for (const response of responses) {
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const exposed = (response.headers.get('access-control-expose-headers') ?? '')
        .toLowerCase()
        .split(/,\s*/);
      expect(exposed).toEqual(
        expect.arrayContaining(['x-goog-upload-url', 'x-goog-upload-status', 'x-goog-upload-size-received']),
      );
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    }
    const noOrigin = await fetch(objectUrl(server.url, `files/${alice.uid}/cors.txt`), {
      headers: alice.auth,
    });
    expect(noOrigin.status).toBe(200);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('leaves the JSON API with its own headers and body limit', async () => {
    const health = await fetch(`${server.url}/api/health`);
    expect(health.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    const tooBig = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', password: 'p'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooBig.status).toBe(413);
  });
});

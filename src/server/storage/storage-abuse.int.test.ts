import { describe, expect, it } from 'vitest';
import { STORAGE_OPEN_UPLOADS_MAX } from '../../common/limits';
import { storageErrorTexts } from '../../common/storage-errors';
import { makePng } from '../../../test/support/fixtures';
import type { TestServer } from '../../../test/support/test-server';
import { updateObject } from './objects/objects-repository';
import {
  asBody,
  bucketUrl,
  deleteObject,
  multipartBody,
  objectUrl,
  putObject,
  startResumable,
  startSession,
  testBytes,
  uploadCommand,
  uploadMultipart,
  withDatabase,
  useStorageSuite,
  useQuotaUser,
  withStorageSweeper,
  storedUploadIds,
  type StorageTestUser,
} from './testing/storage-http';

/**
 * Issue 9, point 5: the storage quota cannot be escaped through upload sessions, only the configured
 * bucket exists, header-bound metadata is validated on every write, and no download runs as script or page.
 */

type ErrorBody = { error: { code: number; message: string } };
const errorOf = async (response: Response) => (await response.json()) as ErrorBody;
const uploadIdOf = (uploadUrl: string) => new URL(uploadUrl).searchParams.get('upload_id')!;

describe('open resumable sessions and the quota', () => {
  let server: TestServer;
  let user: StorageTestUser;
  let room: number;

  useQuotaUser(1_000_000, (suite) => ({ server, user, room } = suite));

  it('counts a session at its declared size from its start, until it is cancelled', async () => {
    const first = await startSession(server.url, `files/${user.uid}/first.bin`, room - 100, {
      headers: user.auth,
    });
    // Nothing uploaded yet, and still the room is taken: by a second session and by a simple upload.
    const second = await startResumable(server.url, `files/${user.uid}/second.bin`, 200, {
      headers: user.auth,
    });
    expect(second.status).toBe(402);
    expect((await errorOf(second)).error.message).toBe(storageErrorTexts.quotaExceeded('dojo'));
    const simple = await uploadMultipart(server.url, `files/${user.uid}/simple.bin`, testBytes(200), {
      headers: user.auth,
    });
    expect(simple.status).toBe(402);
    expect(
      (await fetch(objectUrl(server.url, `files/${user.uid}/simple.bin`), { headers: user.auth })).status,
    ).toBe(404);
    // What is left beside the reservation is still there.
    await putObject(server.url, `files/${user.uid}/small.bin`, testBytes(100), { headers: user.auth });

    expect((await uploadCommand(first, user.auth, 'cancel')).headers.get('x-goog-upload-status')).toBe(
      'cancelled',
    );
    const after = await startResumable(server.url, `files/${user.uid}/second.bin`, 200, {
      headers: user.auth,
    });
    expect(after.status).toBe(200);
    const afterUrl = new URL(after.headers.get('x-goog-upload-url')!, server.url).href;
    expect((await uploadCommand(afterUrl, user.auth, 'cancel')).status).toBe(200);
    expect(
      (await deleteObject(server.url, `files/${user.uid}/small.bin`, { headers: user.auth })).status,
    ).toBe(204);
  });

  it('lets a session that reserved all the room finish (its own reservation is not counted twice)', async () => {
    const bytes = testBytes(room, 3);
    const uploadUrl = await startSession(server.url, `files/${user.uid}/all.bin`, bytes.length, {
      headers: user.auth,
    });
    const done = await uploadCommand(uploadUrl, user.auth, 'upload, finalize', 0, bytes);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(done.headers.get('x-goog-upload-status')).toBe('final');
    // Now the object holds the room: a final session reserves nothing more.
    expect(
      (await startResumable(server.url, `files/${user.uid}/more.bin`, 1, { headers: user.auth })).status,
    ).toBe(402);
    expect((await deleteObject(server.url, `files/${user.uid}/all.bin`, { headers: user.auth })).status).toBe(
      204,
    );
  });
});

describe('how many sessions, and for how long', () => {
  let server: TestServer;
  let alice: StorageTestUser;
  let bob: StorageTestUser;

  useStorageSuite((suite) => ({ server, alice, bob } = suite));

  it(`allows ${STORAGE_OPEN_UPLOADS_MAX} unfinished sessions per user (429 with a message); finishing or cancelling one frees a place`, async () => {
    const open = await Promise.all(
      Array.from({ length: STORAGE_OPEN_UPLOADS_MAX }, (_, index) =>
        startSession(server.url, `files/${alice.uid}/open-${index}.bin`, 10, { headers: alice.auth }),
      ),
    );
    const refused = await startResumable(server.url, `files/${alice.uid}/one-more.bin`, 10, {
      headers: alice.auth,
    });
    expect(refused.status).toBe(429);
    expect(await errorOf(refused)).toEqual({
      error: {
        code: 429,
        message: storageErrorTexts.tooManyOpenUploads(STORAGE_OPEN_UPLOADS_MAX),
        requestId: expect.any(String),
      },
    });
    // The limit is per user.
    await startSession(server.url, `files/${bob.uid}/mine.bin`, 10, { headers: bob.auth });

    const [toFinish, toCancel] = open;
    expect((await uploadCommand(toFinish!, alice.auth, 'upload, finalize', 0, testBytes(10))).status).toBe(
      200,
    );
    await startSession(server.url, `files/${alice.uid}/after-finish.bin`, 10, { headers: alice.auth });
    expect(
      (await startResumable(server.url, `files/${alice.uid}/x.bin`, 10, { headers: alice.auth })).status,
    ).toBe(429);
    expect((await uploadCommand(toCancel!, alice.auth, 'cancel')).status).toBe(200);
    await startSession(server.url, `files/${alice.uid}/after-cancel.bin`, 10, { headers: alice.auth });
  });

  it('sweeps a session 24 hours after its start, active or not, with its bytes', async () => {
    const uploadUrl = await startSession(server.url, `files/${bob.uid}/day.bin`, 10, { headers: bob.auth });
    await uploadCommand(uploadUrl, bob.auth, 'upload', 0, testBytes(5));
    const uploadId = uploadIdOf(uploadUrl);
    expect(await storedUploadIds(server)).toContain(uploadId);
    const later = Date.now() + 24 * 60 * 60 * 1000 + 60_000;
    expect(await withStorageSweeper(server, (sweeper) => sweeper.sweepExpiredUploads(later))).toBeGreaterThan(
      0,
    );
    expect(await storedUploadIds(server)).not.toContain(uploadId);
    expect((await uploadCommand(uploadUrl, bob.auth, 'query')).status).toBe(404);
  });
});

describe('an expired session (STORAGE_UPLOAD_TTL_MS)', () => {
  let server: TestServer;
  let user: StorageTestUser;
  let room: number;

  // A lifetime of 1 ms: every session is dead by its next request, without waiting for a clock.
  useQuotaUser(1_000_000, (suite) => ({ server, user, room } = suite), { storageUploadSessionTtlMs: 1 });

  it('answers 404 to every command before any sweep, and reserves nothing any more', async () => {
    const uploadUrl = await startSession(server.url, `files/${user.uid}/dead.bin`, room, {
      headers: user.auth,
    });
    const deadline = Date.now() + 5_000;
    let query = await uploadCommand(uploadUrl, user.auth, 'query');
    while (query.status !== 404 && Date.now() < deadline)
      query = await uploadCommand(uploadUrl, user.auth, 'query');
    expect(query.status).toBe(404);
    for (const command of ['upload', 'upload, finalize', 'finalize']) {
      const response = await uploadCommand(uploadUrl, user.auth, command, 0, testBytes(room));
      expect(response.status, command).toBe(404);
    }
    expect(
      (await fetch(objectUrl(server.url, `files/${user.uid}/dead.bin`), { headers: user.auth })).status,
    ).toBe(404);
    // Its reservation and its place are free again, whatever count of dead sessions there is.
    for (let index = 0; index <= STORAGE_OPEN_UPLOADS_MAX; index += 1) {
      const again = await startResumable(server.url, `files/${user.uid}/again-${index}.bin`, room, {
        headers: user.auth,
      });
      expect(again.status, `start ${index}`).toBe(200);
    }
  });
});

describe('buckets, metadata and downloads', () => {
  let server: TestServer;
  let alice: StorageTestUser;

  useStorageSuite((suite) => ({ server, alice } = suite));

  it('knows only the configured bucket: every request naming another answers 404 with the protocol body', async () => {
    const name = `files/${alice.uid}/in-dojo.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth });
    const expected = {
      error: { code: 404, message: storageErrorTexts.bucketNotFound, requestId: expect.any(String) },
    };
    for (const bucket of ['other', 'Dojo', 'dojo.appspot.com']) {
      const requests: [string, Promise<Response>][] = [
        ['list', fetch(`${bucketUrl(server.url, bucket)}?prefix=`, { headers: alice.auth })],
        ['metadata', fetch(objectUrl(server.url, name, bucket), { headers: alice.auth })],
        ['download', fetch(`${objectUrl(server.url, name, bucket)}?alt=media`, { headers: alice.auth })],
        ['multipart', uploadMultipart(server.url, name, testBytes(10), { headers: alice.auth, bucket })],
        ['resumable', startResumable(server.url, name, 10, { headers: alice.auth, bucket })],
        [
          'patch',
          fetch(objectUrl(server.url, name, bucket), {
            method: 'PATCH',
            headers: { ...alice.auth, 'content-type': 'application/json' },
            body: JSON.stringify({ contentLanguage: 'en' }),
          }),
        ],
        ['delete', deleteObject(server.url, name, { headers: alice.auth, bucket })],
      ];
      for (const [operation, request] of requests) {
        const response = await request;
        expect(response.status, `${bucket} ${operation}`).toBe(404);
        expect(await response.json(), `${bucket} ${operation}`).toEqual(expected);
      }
    }
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(200);
  });

  it('refuses a content type that is not a media type on every write path (400), storing nothing', async () => {
    const name = `files/${alice.uid}/typed.txt`;
    const bad = [
      'text/plain\r\nX-Injected: 1',
      'text/plain\n',
      'not a type',
      'text/',
      'text/plain; a="\u000b"',
      'text/plaïn',
    ];
    for (const contentType of bad) {
      const multipart = await uploadMultipart(server.url, name, testBytes(10), {
        headers: alice.auth,
        contentType: 'text/plain',
        metadata: { contentType },
      });
      expect(multipart.status, JSON.stringify(contentType)).toBe(400);
      expect(await errorOf(multipart)).toEqual({
        error: { code: 400, message: storageErrorTexts.invalidContentType, requestId: expect.any(String) },
      });
      const resumable = await startResumable(server.url, name, 10, {
        headers: alice.auth,
        metadata: { contentType },
      });
      expect(resumable.status, JSON.stringify(contentType)).toBe(400);
    }
    // Types that come from headers rather than the metadata: the resumable start's declared type, a media
    // upload's Content-Type and a multipart file part's Content-Type.
    const declared = await fetch(`${bucketUrl(server.url)}?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: {
        ...alice.auth,
        'X-Goog-Upload-Protocol': 'resumable',
        'X-Goog-Upload-Command': 'start',
        'X-Goog-Upload-Header-Content-Length': '10',
        'X-Goog-Upload-Header-Content-Type': 'not a type',
      },
      body: JSON.stringify({ name }),
    });
    expect(declared.status).toBe(400);
    const media = await fetch(`${bucketUrl(server.url)}?uploadType=media&name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...alice.auth, 'content-type': 'nonsense' },
      body: asBody(testBytes(10)),
    });
    expect(media.status).toBe(400);
    const part = multipartBody({ name }, testBytes(10), 'nonsense');
    const multipartPart = await fetch(`${bucketUrl(server.url)}?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Protocol': 'multipart', 'content-type': part.contentType },
      body: asBody(part.body),
    });
    expect(multipartPart.status).toBe(400);
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(404);
  });

  it('refuses header-bound fields and custom metadata with line breaks or control characters (400)', async () => {
    const name = `files/${alice.uid}/fields.txt`;
    const cases: [Record<string, unknown>, string][] = [
      [{ cacheControl: 'no-cache\r\nX-Injected: 1' }, storageErrorTexts.invalidHeaderField('cacheControl')],
      [{ contentDisposition: 'attachment\n' }, storageErrorTexts.invalidHeaderField('contentDisposition')],
      [{ contentEncoding: 'gzip\u0000' }, storageErrorTexts.invalidHeaderField('contentEncoding')],
      [{ contentLanguage: 'en\u2028' }, storageErrorTexts.invalidHeaderField('contentLanguage')],
      [{ metadata: { 'bad key': 'v' } }, storageErrorTexts.invalidCustomMetadataKey],
      [{ metadata: { 'x\r\ny': 'v' } }, storageErrorTexts.invalidCustomMetadataKey],
      [{ metadata: { ok: 'line\nbreak' } }, storageErrorTexts.invalidCustomMetadataValue('ok')],
    ];
    for (const [metadata, message] of cases) {
      const response = await uploadMultipart(server.url, name, testBytes(10), {
        headers: alice.auth,
        metadata,
      });
      expect(response.status, JSON.stringify(metadata)).toBe(400);
      expect((await errorOf(response)).error.message).toBe(message);
      expect((await startResumable(server.url, name, 10, { headers: alice.auth, metadata })).status).toBe(
        400,
      );
    }
    // Text in values is fine; only what would break a header line is refused.
    const stored = await putObject(server.url, name, testBytes(10), {
      headers: alice.auth,
      metadata: { metadata: { author: 'Zoë Ñúñez' }, contentLanguage: 'en-GB', cacheControl: 'max-age=60' },
    });
    expect(stored).toMatchObject({ metadata: { author: 'Zoë Ñúñez' }, contentLanguage: 'en-GB' });
  });

  it('validates a metadata update (PATCH) the same way and leaves the object unchanged', async () => {
    const name = `files/${alice.uid}/patched.txt`;
    await putObject(server.url, name, testBytes(10), { headers: alice.auth, contentType: 'text/plain' });
    for (const body of [
      { contentType: 'text/plain\r\nX-Injected: 1' },
      { contentLanguage: 'en\r\n' },
      { metadata: { 'a b': '1' } },
    ]) {
      const response = await fetch(objectUrl(server.url, name), {
        method: 'PATCH',
        headers: { ...alice.auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const metadata = (await (await fetch(objectUrl(server.url, name), { headers: alice.auth })).json()) as {
      contentType: string;
      metageneration: string;
    };
    expect(metadata).toMatchObject({ contentType: 'text/plain', metageneration: '1' });
    const download = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: alice.auth });
    expect(download.status).toBe(200);
  });

  it('still serves an object whose stored type is not a valid header (stored before the check)', async () => {
    const name = `files/${alice.uid}/legacy.txt`;
    const bytes = testBytes(20, 5);
    await putObject(server.url, name, bytes, { headers: alice.auth, contentType: 'text/plain' });
    await withDatabase(server, ({ db }) =>
      updateObject(db, 'dojo', name, { content_type: 'text/plain\r\nX-Injected: 1' }),
    );
    const response = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: alice.auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('x-injected')).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('never serves an upload as something a browser runs: script, page, style or XML are inert attachments', async () => {
    const active = [
      'text/javascript',
      'application/javascript',
      'text/ecmascript',
      'text/html',
      'application/xhtml+xml',
      'image/svg+xml',
      'text/xml',
      'application/xml',
      'text/xsl',
      'text/css',
      'application/x-shockwave-flash',
      'multipart/x-mixed-replace; boundary=x',
    ];
    for (const contentType of active) {
      const name = `files/${alice.uid}/active-${active.indexOf(contentType)}`;
      const resource = await putObject(server.url, name, Buffer.from('alert(document.domain)'), {
        headers: alice.auth,
        contentType,
      });
      // The metadata keeps what the client said; only the download is defused.
      expect(resource.contentType).toBe(contentType);
      const response = await fetch(
        `${objectUrl(server.url, name)}?alt=media&token=${String(resource.downloadTokens)}`,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type'), contentType).toBe('application/octet-stream');
      expect(response.headers.get('content-disposition'), contentType).toMatch(/^attachment;/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
  });

  it('serves raster images inline and other inert types as attachments of their own type', async () => {
    const png = await putObject(server.url, `files/${alice.uid}/picture.png`, makePng(), {
      headers: alice.auth,
      contentType: 'image/png',
    });
    const image = await fetch(
      `${objectUrl(server.url, `files/${alice.uid}/picture.png`)}?alt=media&token=${String(png.downloadTokens)}`,
    );
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(image.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");

    for (const contentType of ['text/plain; charset=utf-8', 'application/pdf', 'video/mp4']) {
      const name = `files/${alice.uid}/inert-${contentType.replace(/\W/g, '')}`;
      const resource = await putObject(server.url, name, testBytes(10), { headers: alice.auth, contentType });
      const response = await fetch(
        `${objectUrl(server.url, name)}?alt=media&token=${String(resource.downloadTokens)}`,
      );
      expect(response.headers.get('content-type'), contentType).toBe(contentType);
      expect(response.headers.get('content-disposition'), contentType).toMatch(/^attachment;/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/support/test-server';
import {
  bucketUrl,
  deleteObject,
  objectUrl,
  putObject,
  useQuotaUser,
  useStorageUser,
  startResumable,
  startSession,
  testBytes,
  uploadCommand,
  uploadMultipart,
  type StorageTestUser,
} from './testing/storage-http';

/** Servers started with non-default storage settings: a small quota and PUBLIC_URL; App Check enforced. */

describe('quota (STORAGE_QUOTA_BYTES) and PUBLIC_URL', () => {
  const QUOTA = 400_000;
  let server: TestServer;
  let user: StorageTestUser;
  let room: number;

  useQuotaUser(QUOTA, (suite) => ({ server, user, room } = suite), { publicUrl: 'https://dojo.example' });

  it('refuses a multipart upload that would pass the quota (402) and keeps nothing of it', async () => {
    const name = `files/${user.uid}/too-big.bin`;
    const response = await uploadMultipart(server.url, name, testBytes(QUOTA), { headers: user.auth });
    expect(response.status).toBe(402);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(402);
    expect(body.error.message).toContain("Quota for bucket 'dojo' exceeded");
    expect((await fetch(objectUrl(server.url, name), { headers: user.auth })).status).toBe(404);
  });

  it('counts every object the user owns, and lets a replacement reuse its own size', async () => {
    const name = `files/${user.uid}/fits.bin`;
    await putObject(server.url, name, testBytes(room), { headers: user.auth });
    // Full: one more byte anywhere is refused, but replacing the same object with as many bytes is not.
    expect(
      (await uploadMultipart(server.url, `files/${user.uid}/one.bin`, testBytes(1), { headers: user.auth }))
        .status,
    ).toBe(402);
    expect((await uploadMultipart(server.url, name, testBytes(room, 2), { headers: user.auth })).status).toBe(
      200,
    );
    expect((await deleteObject(server.url, name, { headers: user.auth })).status).toBe(204);
  });

  it('refuses a resumable start whose declared size would pass the quota (402)', async () => {
    const response = await startResumable(server.url, `files/${user.uid}/huge.bin`, QUOTA, {
      headers: user.auth,
    });
    expect(response.status).toBe(402);
  });

  it("reserves an open session's declared size from its start: writes that would pass the quota meanwhile get 402", async () => {
    const size = 300_000;
    const uploadUrl = new URL(
      await startSession(server.url, `files/${user.uid}/late.bin`, size, { headers: user.auth }),
    );
    // The URL is on PUBLIC_URL; talk to the test server directly.
    const local = `${server.url}${uploadUrl.pathname}${uploadUrl.search}`;
    await uploadCommand(local, user.auth, 'upload', 0, testBytes(size - 10));
    // The session holds 300000 of the 400000 bytes: another 200000 would pass the quota, however sent.
    const meanwhile = `files/${user.uid}/meanwhile.bin`;
    expect(
      (await uploadMultipart(server.url, meanwhile, testBytes(200_000), { headers: user.auth })).status,
    ).toBe(402);
    expect((await startResumable(server.url, meanwhile, 200_000, { headers: user.auth })).status).toBe(402);
    // Its own reservation does not count twice when it finishes.
    const finalize = await uploadCommand(local, user.auth, 'upload, finalize', size - 10, testBytes(10));
    expect(finalize.status).toBe(200);
    expect(finalize.headers.get('x-goog-upload-status')).toBe('final');
    expect(
      (await deleteObject(server.url, `files/${user.uid}/late.bin`, { headers: user.auth })).status,
    ).toBe(204);
  });

  it('builds the upload URL on PUBLIC_URL', async () => {
    const uploadUrl = await startSession(server.url, `files/${user.uid}/public.bin`, 1, {
      headers: user.auth,
    });
    expect(uploadUrl.startsWith('https://dojo.example/v0/b/dojo/o?name=')).toBe(true);
  });
});

describe('App Check enforced (APP_CHECK_ENFORCED=true)', () => {
  let server: TestServer;
  let user: StorageTestUser;
  let name: string;
  let downloadToken: string;

  useStorageUser(
    async (suite) => {
      ({ server, user } = suite);
      name = `thumbnails/${user.uid}/avatar.png`;
      const photo = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: user.cookie } });
      const photoURL = ((await photo.json()) as { user: { photoURL: string } }).user.photoURL;
      downloadToken = new URL(photoURL, server.url).searchParams.get('token')!;
    },
    { configOverrides: { appCheckEnforced: true } },
  );

  const mint = async (): Promise<string> => {
    const response = await fetch(`${server.url}/api/app-check/token`, { method: 'POST' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { token: string; expiresIn: number };
    expect(body.expiresIn).toBe(3600);
    return body.token;
  };

  it('refuses a request without an App Check token: 401 with the reason phrase the SDK reads', async () => {
    const response = await fetch(objectUrl(server.url, name), { headers: user.auth });
    expect(response.status).toBe(401);
    expect(response.statusText).toBe('Firebase App Check token is invalid.');
    const body = (await response.json()) as { error: { code: number } };
    expect(body.error.code).toBe(401);
  });

  it('refuses an invalid App Check token (401)', async () => {
    const response = await fetch(objectUrl(server.url, name), {
      headers: { ...user.auth, 'X-Firebase-AppCheck': 'eyJhbGciOiJIUzI1NiJ9.e30.invalid' },
    });
    expect(response.status).toBe(401);
    expect(response.statusText).toBe('Firebase App Check token is invalid.');
  });

  it('accepts a token minted at POST /api/app-check/token on every operation', async () => {
    const headers = { ...user.auth, 'X-Firebase-AppCheck': await mint() };
    expect((await fetch(objectUrl(server.url, name), { headers })).status).toBe(200);
    expect((await fetch(`${bucketUrl(server.url)}?prefix=&delimiter=%2F`, { headers })).status).toBe(200);
    const upload = await uploadMultipart(server.url, `files/${user.uid}/checked.txt`, testBytes(5), {
      headers,
    });
    expect(upload.status).toBe(200);
  });

  it('still needs a user after App Check (401 with the ordinary phrase)', async () => {
    const response = await fetch(objectUrl(server.url, name), {
      headers: { 'X-Firebase-AppCheck': await mint() },
    });
    expect(response.status).toBe(401);
    expect(response.statusText).toBe('Unauthorized');
  });

  it('mints App Check tokens for our own pages only (CSRF check on /api)', async () => {
    const response = await fetch(`${server.url}/api/app-check/token`, {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });

  it('keeps download URLs working: the download token alone is enough', async () => {
    const response = await fetch(`${objectUrl(server.url, name)}?alt=media&token=${downloadToken}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});

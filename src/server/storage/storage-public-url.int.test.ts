import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestWithForgedHost } from '../../../test/support/forged-host';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { bucketUrl, objectUrl, signUpStorageUser, type StorageTestUser } from './testing/storage-http';

/**
 * The resumable upload URL and the private-network preflight answer depend on PUBLIC_URL only, never on a
 * header the client writes (docs/decisions/043-links-from-configuration.md). The proxies at 127.0.0.1 are
 * trusted, so even `X-Forwarded-Host` would be believed if anything looked at it.
 */
const PUBLIC_URL = 'https://dojo.example';
const FORGED_HOST = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

let withPublicUrl: TestServer;
let withoutPublicUrl: TestServer;

beforeAll(async () => {
  withPublicUrl = await startTestServer({
    configOverrides: { publicUrl: PUBLIC_URL, trustProxy: ['127.0.0.1'] },
  });
  withoutPublicUrl = await startTestServer({ configOverrides: { trustProxy: ['127.0.0.1'] } });
});
afterAll(async () => {
  await withPublicUrl?.stop();
  await withoutPublicUrl?.stop();
});

/** A resumable start sent with a forged Host; resolves with the `X-Goog-Upload-URL` it got. */
async function uploadUrlFromForgedStart(server: TestServer, user: StorageTestUser): Promise<string> {
  const name = `files/${user.uid}/forged.bin`;
  const answer = await requestWithForgedHost(`${bucketUrl(server.url)}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      ...FORGED_HOST,
      ...user.auth,
      'x-goog-upload-protocol': 'resumable',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-length': '3',
      'content-type': 'application/json; charset=utf-8',
    },
    body: JSON.stringify({ name }),
  });
  expect(answer.status, answer.body).toBe(200);
  return String(answer.headers['x-goog-upload-url']);
}

describe('the resumable upload URL', () => {
  it('is on PUBLIC_URL whatever Host and X-Forwarded-Host say', async () => {
    const user = await signUpStorageUser(withPublicUrl.url);
    const uploadUrl = await uploadUrlFromForgedStart(withPublicUrl, user);
    expect(new URL(uploadUrl).origin).toBe(PUBLIC_URL);
    expect(uploadUrl).not.toContain('evil.example');
  });

  it('is a path without PUBLIC_URL: it names no host, and works from the URL the client called', async () => {
    const user = await signUpStorageUser(withoutPublicUrl.url);
    const uploadUrl = await uploadUrlFromForgedStart(withoutPublicUrl, user);
    expect(uploadUrl).toMatch(/^\/v0\/b\/dojo\/o\?name=[^&]+&upload_id=[\w-]+&upload_protocol=resumable$/);
    const finished = await fetch(new URL(uploadUrl, withoutPublicUrl.url), {
      method: 'POST',
      headers: { ...user.auth, 'x-goog-upload-command': 'upload, finalize', 'x-goog-upload-offset': '0' },
      body: 'abc',
    });
    expect(finished.headers.get('x-goog-upload-status')).toBe('final');
  });
});

describe('Access-Control-Allow-Private-Network', () => {
  const preflight = (server: TestServer, origin: string) =>
    fetch(objectUrl(server.url, 'files/x/y.txt'), {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });

  it("answers a preflight from PUBLIC_URL's origin only", async () => {
    const own = await preflight(withPublicUrl, PUBLIC_URL);
    expect(own.headers.get('access-control-allow-private-network')).toBe('true');
    for (const origin of [
      'https://evil.example',
      'http://dojo.example',
      'https://dojo.example.evil.example',
    ]) {
      const foreign = await preflight(withPublicUrl, origin);
      // Still a CORS answer (storage is open to any origin), without the private-network grant.
      expect(foreign.status).toBe(204);
      expect(foreign.headers.get('access-control-allow-private-network'), origin).toBeNull();
    }
  });

  it('answers none without PUBLIC_URL, whatever the Origin', async () => {
    for (const origin of ['https://evil.example', withoutPublicUrl.url]) {
      const answer = await preflight(withoutPublicUrl, origin);
      expect(answer.headers.get('access-control-allow-private-network'), origin).toBeNull();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postJson, postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { signUpStorageUser, uploadMultipart } from '../storage/testing/storage-http';

const ATTACKER = 'https://attacker.example';
const refusal = {
  error: { code: 'forbidden', message: messages.crossOrigin, requestId: expect.any(String) },
};

/** Whether the session behind this cookie is still signed in. */
async function signedIn(baseUrl: string, cookie: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/api/auth/session`, { headers: { cookie } });
  return ((await response.json()) as { user: unknown }).user !== null;
}

async function signUp(baseUrl: string): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail('csrf');
  const response = await postSignup(baseUrl, { email });
  expect(response.status).toBe(201);
  return { email, cookie: sessionCookieOf(response) };
}

const logIn = (baseUrl: string, email: string) =>
  postJson(baseUrl, '/api/auth/login', { email, password: 'correct horse battery' });

describe('cross-site requests without PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a signup from another site however its path is spelled, and creates nothing', async () => {
    const email = uniqueEmail('csrf-signup');
    const form = new FormData();
    form.set('email', email);
    form.set('password', 'correct horse battery');
    form.set('displayName', 'attacker');
    for (const path of ['/api/auth/signup', '/%61pi/auth/signup', '/api/auth/%73ignup']) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        body: form,
        headers: { origin: ATTACKER },
      });
      expect(response.status, path).toBe(403);
      expect(await response.json()).toEqual(refusal);
    }
    expect((await logIn(server.url, email)).status).toBe(401);
  });

  it('refuses a logout from another site however its path is spelled; the session lives on', async () => {
    const { cookie } = await signUp(server.url);
    for (const path of ['/api/auth/logout', '/%61pi/auth/logout', '/api/auth/logou%74']) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { cookie, origin: ATTACKER },
      });
      expect(response.status, path).toBe(403);
    }
    expect(await signedIn(server.url, cookie)).toBe(true);
  });

  it('refuses a state-changing request from another site on a path no route serves', async () => {
    const response = await fetch(`${server.url}/%61pi/no-such-thing`, {
      method: 'DELETE',
      headers: { origin: ATTACKER },
    });
    expect(response.status).toBe(403);
  });

  it('refuses a request without Origin when the browser says it is from another site (Sec-Fetch-Site)', async () => {
    const { email } = await signUp(server.url);
    const login = await postJson(
      server.url,
      '/api/auth/login',
      { email, password: 'correct horse battery' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(login.status).toBe(403);
    // A sibling subdomain is another origin too.
    const logout = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-site' },
    });
    expect(logout.status).toBe(403);
  });

  it('refuses a form post without Origin or Sec-Fetch-Site whose Referer is another site (older browsers)', async () => {
    const response = await postSignup(server.url, {}, { referer: `${ATTACKER}/trap.html` });
    expect(response.status).toBe(403);
  });

  it('lets the app’s own pages and non-browser clients through', async () => {
    const { email, cookie } = await signUp(server.url);
    expect((await logIn(server.url, email)).status).toBe(200);
    const ownPage = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie, origin: server.url, 'sec-fetch-site': 'same-origin', referer: `${server.url}/` },
    });
    expect(ownPage.status).toBe(204);
    expect(await signedIn(server.url, cookie)).toBe(false);
  });

  it('lets another site call the storage API with an id token and no session cookie', async () => {
    const user = await signUpStorageUser(server.url);
    const response = await uploadMultipart(server.url, `files/${user.uid}/cross.txt`, Buffer.from('hi'), {
      headers: { ...user.auth, origin: ATTACKER },
    });
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it('refuses a storage call from another site that carries the session cookie', async () => {
    const user = await signUpStorageUser(server.url);
    for (const headers of [
      { cookie: user.cookie, origin: ATTACKER },
      { cookie: user.cookie, origin: ATTACKER, ...user.auth },
    ]) {
      const response = await uploadMultipart(server.url, `files/${user.uid}/csrf.txt`, Buffer.from('x'), {
        headers,
      });
      expect(response.status).toBe(403);
    }
  });
});

describe('cross-site requests with PUBLIC_URL', () => {
  const PUBLIC_URL = 'https://dojo.example';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configOverrides: { publicUrl: PUBLIC_URL } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('accepts only PUBLIC_URL’s origin, scheme included, not whatever the Host header says', async () => {
    const { email } = await signUp(server.url);
    const from = (origin: string) =>
      postJson(server.url, '/api/auth/login', { email, password: 'correct horse battery' }, { origin });
    expect((await from(PUBLIC_URL)).status).toBe(200);
    expect((await from('http://dojo.example')).status).toBe(403);
    expect((await from('https://dojo.example:8443')).status).toBe(403);
    // The request's own Host (the test server's address) is not the public origin.
    expect((await from(server.url)).status).toBe(403);
  });

  it('ignores the session cookie on a read from an origin that is not PUBLIC_URL’s', async () => {
    const { cookie } = await signUp(server.url);
    const read = (origin: string) =>
      fetch(`${server.url}/api/auth/session`, { headers: { cookie, origin } }).then(
        async (response) => ((await response.json()) as { user: unknown }).user,
      );
    expect(await read(PUBLIC_URL)).not.toBeNull();
    expect(await read('http://dojo.example')).toBeNull();
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, THUMBNAIL_MAX_BYTES } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import {
  getOnFreshConnection,
  makePng,
  postJson,
  postSignup,
  sessionCookieOf,
  storedBlobFiles,
  SVG_IMAGE,
  tryLiveSocket,
  uniqueEmail,
} from '../../../test/support/fixtures';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
});

async function listUsers(cookie: string) {
  const response = await fetch(`${server.url}/api/users`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return (
    (await response.json()) as {
      users: { id: string; displayName: string; online: boolean; photoURL: string }[];
    }
  ).users;
}

const blobFiles = (): string[] => storedBlobFiles(server.dataDir);

async function countUsers(): Promise<number> {
  const { email, password } = await adminAccount;
  const login = await postJson(server.url, '/api/auth/login', { email, password });
  return (await listUsers(sessionCookieOf(login))).length;
}

// One account used only to look at the user list from outside.
let adminAccount: Promise<{ email: string; password: string }>;
beforeAll(async () => {
  const email = uniqueEmail('observer');
  adminAccount = postSignup(server.url, {
    email,
    password: 'observer-password',
    displayName: 'observer',
  }).then((response) => {
    expect(response.status).toBe(201);
    return { email, password: 'observer-password' };
  });
  await adminAccount;
});

describe('POST /api/auth/signup', () => {
  it('creates the account, stores the thumbnail, marks the profile online and signs in', async () => {
    const email = uniqueEmail('Mario');
    const response = await postSignup(server.url, { email, displayName: '  Mario  ' });
    expect(response.status).toBe(201);
    const body = (await response.json()) as {
      user: { uid: string; email: string; displayName: string; photoURL: string; role: string };
      idToken: string;
    };
    expect(body.user.displayName).toBe('Mario');
    expect(body.user.email).toBe(email);
    expect(body.idToken.split('.')).toHaveLength(3);
    expect(body.user.photoURL).toContain(`/o/thumbnails%2F${body.user.uid}%2Favatar.png?alt=media&token=`);

    const cookie = sessionCookieOf(response);
    expect(response.headers.getSetCookie()[0]).toMatch(/HttpOnly/);
    expect(response.headers.getSetCookie()[0]).toMatch(/SameSite=Lax/);

    const image = await fetch(`${server.url}${body.user.photoURL}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(makePng())).toBe(true);

    const me = (await listUsers(cookie)).find((user) => user.id === body.user.uid);
    expect(me).toEqual({
      id: body.user.uid,
      displayName: 'Mario',
      photoURL: body.user.photoURL,
      online: true,
      role: body.user.role,
    });

    const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie } });
    expect(((await session.json()) as { user: { uid: string } }).user.uid).toBe(body.user.uid);
  });

  const failures: [string, Parameters<typeof postSignup>[1], string, string][] = [
    ['no thumbnail', { thumbnail: null }, 'thumbnail', messages.thumbnailRequired],
    [
      'an empty file',
      { thumbnail: { bytes: Buffer.alloc(0), name: 'empty.png' } },
      'thumbnail',
      messages.thumbnailRequired,
    ],
    [
      'a text file named .png',
      { thumbnail: { bytes: Buffer.from('hello, not an image'), name: 'fake.png' } },
      'thumbnail',
      messages.thumbnailNotImage,
    ],
    [
      'an SVG',
      { thumbnail: { bytes: SVG_IMAGE, name: 'evil.svg', type: 'image/svg+xml' } },
      'thumbnail',
      messages.thumbnailNotImage,
    ],
    [
      'a PNG over 100000 bytes',
      { thumbnail: { bytes: makePng(THUMBNAIL_MAX_BYTES + 1), name: 'big.png' } },
      'thumbnail',
      messages.thumbnailTooLarge,
    ],
    ['a malformed email', { email: 'not-an-email' }, 'email', messages.emailInvalid],
    ['a missing email', { email: '' }, 'email', messages.emailRequired],
    ['a weak password', { password: 'short' }, 'password', messages.passwordWeak],
    ['a blank display name', { displayName: '   ' }, 'displayName', messages.displayNameRequired],
  ];

  it.each(failures)(
    'refuses %s with a field message and changes nothing',
    async (_label, input, field, message) => {
      const usersBefore = await countUsers();
      const blobsBefore = blobFiles().length;
      const response = await postSignup(server.url, input);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; fields: Record<string, string> } };
      expect(body.error.code).toBe('invalid-argument');
      expect(body.error.fields[field]).toBe(message);
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(await countUsers()).toBe(usersBefore);
      expect(blobFiles().length).toBe(blobsBefore);
    },
  );

  it('accepts a thumbnail of exactly 100000 bytes', async () => {
    const response = await postSignup(server.url, {
      thumbnail: { bytes: makePng(THUMBNAIL_MAX_BYTES), name: 'edge.png' },
    });
    expect(response.status).toBe(201);
  });

  it('refuses an email already in use, regardless of case', async () => {
    const email = uniqueEmail('dup');
    expect((await postSignup(server.url, { email })).status).toBe(201);
    const again = await postSignup(server.url, { email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(messages.emailInUse);
  });

  it('is atomic when two signups race for one email: one account, one stored file, no orphans', async () => {
    const email = uniqueEmail('race');
    const blobsBefore = blobFiles().length;
    const usersBefore = await countUsers();
    const responses = await Promise.all([
      postSignup(server.url, { email }),
      postSignup(server.url, { email }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(await countUsers()).toBe(usersBefore + 1);
    expect(blobFiles().length).toBe(blobsBefore + 1);
  });

  it('leaves no account behind when storing the thumbnail fails, and says so', async () => {
    const tmp = path.join(server.dataDir, 'storage', 'tmp');
    const email = uniqueEmail('broken-storage');
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.writeFileSync(tmp, 'a file where the staging directory should be');
    try {
      const response = await postSignup(server.url, { email });
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: 'signup-failed', message: messages.signupIncomplete });
    } finally {
      fs.rmSync(tmp, { force: true });
      fs.mkdirSync(tmp);
    }
    const login = await postJson(server.url, '/api/auth/login', { email, password: 'correct horse battery' });
    expect(login.status).toBe(401);
    // The same email is free again: nothing half-made holds it.
    expect((await postSignup(server.url, { email })).status).toBe(201);
  });

  it('refuses a signup posted from another site', async () => {
    const response = await postSignup(server.url, {}, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });
});

describe('login, logout and sessions', () => {
  const password = 'luigi-password';
  let email: string;
  let uid: string;

  beforeAll(async () => {
    email = uniqueEmail('luigi');
    const response = await postSignup(server.url, { email, password, displayName: 'luigi' });
    uid = ((await response.json()) as { user: { uid: string } }).user.uid;
  });

  it('logs in with any case of the email and marks the user online', async () => {
    const response = await postJson(server.url, '/api/auth/login', { email: email.toUpperCase(), password });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { uid: string } };
    expect(body.user.uid).toBe(uid);
    const me = (await listUsers(sessionCookieOf(response))).find((user) => user.id === uid);
    expect(me?.online).toBe(true);
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const wrongPassword = await postJson(server.url, '/api/auth/login', {
      email,
      password: 'not-the-password',
    });
    const unknownEmail = await postJson(server.url, '/api/auth/login', {
      email: uniqueEmail('nobody'),
      password,
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: {
          code: 'wrong-credentials',
          message: messages.wrongCredentials,
          requestId: expect.any(String),
        },
      });
    }
  });

  it('refuses malformed login input with field messages', async () => {
    const response = await postJson(server.url, '/api/auth/login', { email: 'nope', password: '' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields).toEqual({ email: messages.emailInvalid, password: messages.passwordRequired });
  });

  it('logs out: the session ends on the server, its id tokens stop working, the user is offline', async () => {
    const login = await postJson(server.url, '/api/auth/login', { email, password });
    const cookie = sessionCookieOf(login);
    const { idToken } = (await login.json()) as { idToken: string };
    expect(
      (await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${idToken}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${server.url}/api/users`, { headers: { authorization: `Firebase ${idToken}` } })).status,
    ).toBe(200);

    const logout = await fetch(`${server.url}/api/auth/logout`, { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(204);
    expect(logout.headers.getSetCookie()[0]).toMatch(/dojo_session=;/);

    expect((await fetch(`${server.url}/api/users`, { headers: { cookie } })).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${idToken}` } })).status,
    ).toBe(401);
    const other = await postJson(server.url, '/api/auth/login', await adminAccount);
    const me = (await listUsers(sessionCookieOf(other))).find((user) => user.id === uid);
    expect(me?.online).toBe(false);
  });

  it('mints a fresh id token from the session cookie', async () => {
    const login = await postJson(server.url, '/api/auth/login', { email, password });
    const cookie = sessionCookieOf(login);
    const response = await fetch(`${server.url}/api/auth/token`, { method: 'POST', headers: { cookie } });
    expect(response.status).toBe(200);
    const { idToken, expiresIn } = (await response.json()) as { idToken: string; expiresIn: number };
    expect(expiresIn).toBeGreaterThan(0);
    expect(
      (await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${idToken}` } })).status,
    ).toBe(200);
  });

  it('ignores a forged or tampered id token', async () => {
    const login = await postJson(server.url, '/api/auth/login', { email, password });
    const { idToken } = (await login.json()) as { idToken: string };
    const tampered = `${idToken.slice(0, -4)}AAAA`;
    expect(
      (await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${tampered}` } })).status,
    ).toBe(401);
  });

  it('ignores the session cookie on a request from another site', async () => {
    const login = await postJson(server.url, '/api/auth/login', { email, password });
    const cookie = sessionCookieOf(login);
    const response = await fetch(`${server.url}/api/users`, {
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.status).toBe(401);
  });
});

describe('protected routes', () => {
  it.each([
    ['GET', '/api/users'],
    ['POST', '/api/auth/token'],
  ])('%s %s answers 401 when signed out', async (method, route) => {
    const response = await fetch(`${server.url}${route}`, { method });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthenticated', message: messages.notSignedIn, requestId: expect.any(String) },
    });
  });

  it('refuses the live socket without a session', async () => {
    expect(await tryLiveSocket(server.url)).toBe(401);
    expect(await tryLiveSocket(server.url, { cookie: 'dojo_session=forged' })).toBe(401);
  });

  it('reports signed-out state without an error', async () => {
    const response = await fetch(`${server.url}/api/auth/session`);
    expect(await response.json()).toEqual({ user: null });
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await fetch(`${server.url}/api/nope`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not-found');
  });
});

describe('sessions survive a server restart', () => {
  it('keeps the cookie and id token valid across a restart', async () => {
    const email = uniqueEmail('peach');
    const signup = await postSignup(server.url, { email, displayName: 'peach' });
    const cookie = sessionCookieOf(signup);
    const { idToken } = (await signup.json()) as { idToken: string };
    await server.restart();
    expect(await getOnFreshConnection(`${server.url}/api/users`, { cookie })).toBe(200);
    expect(
      await getOnFreshConnection(`${server.url}/api/users`, { authorization: `Bearer ${idToken}` }),
    ).toBe(200);
    expect(
      await getOnFreshConnection(`${server.url}/api/users`, { cookie: 'dojo_session=not-a-session' }),
    ).toBe(401);
  });
});

import { once } from 'node:events';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LIVE_CLOSE_CODES, messages, type LiveServerMessage } from '../../common';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { WAIT_MS } from '../../../test/support/poll';
import { hashSessionToken } from './sessions-repository';

/**
 * How far ahead the session or token of an expiry test ends: long enough for the socket to open first on a
 * busy machine. The test then waits for the close (at most CLOSE_DEADLINE_MS).
 */
const EXPIRES_IN_MS = 5_000;
const CLOSE_DEADLINE_MS = WAIT_MS;

interface SignedUp {
  uid: string;
  cookie: string;
  idToken: string;
}

async function signUp(server: TestServer): Promise<SignedUp> {
  const response = await postSignup(server.url, { email: uniqueEmail('tokens') });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { user: { uid: string }; idToken: string };
  return { uid: body.user.uid, cookie: sessionCookieOf(response), idToken: body.idToken };
}

/** Opens /live with these headers; resolves once open, with every message and the close it ends with. */
async function openLive(server: TestServer, headers: Record<string, string>) {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`, { headers });
  const received: LiveServerMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as LiveServerMessage));
  const closed = new Promise<{ code: number; reason: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`the server kept the socket open for ${CLOSE_DEADLINE_MS} ms`));
    }, CLOSE_DEADLINE_MS);
    socket.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ code, reason: String(reason) });
    });
  });
  // Handled here so a rejection before the test awaits it is not reported as unhandled.
  closed.catch(() => undefined);
  await once(socket, 'open');
  return { received, closed };
}

describe('sessions and tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('mints an id token from the session cookie only, never from an id token', async () => {
    const user = await signUp(server);
    const byToken = await fetch(`${server.url}/api/auth/token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.idToken}` },
    });
    expect(byToken.status).toBe(403);
    expect(await byToken.json()).toEqual({
      error: { code: 'forbidden', message: messages.idTokenCannotMint, requestId: expect.any(String) },
    });

    const byCookie = await fetch(`${server.url}/api/auth/token`, {
      method: 'POST',
      headers: { cookie: user.cookie, authorization: `Bearer ${user.idToken}` },
    });
    expect(byCookie.status).toBe(200);
    expect((await fetch(`${server.url}/api/auth/token`, { method: 'POST' })).status).toBe(401);
  });

  it('closes a live socket when its session expires, with signed-out and close code 4001', async () => {
    const user = await signUp(server);
    const database = await openServerDatabase(server);
    try {
      await database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + EXPIRES_IN_MS).toISOString() })
        .where('token_hash', '=', hashSessionToken(user.cookie.replace(/^dojo_session=/, '')))
        .execute();
    } finally {
      await database.close();
    }
    const { received, closed } = await openLive(server, { cookie: user.cookie });
    expect(await closed).toEqual({ code: LIVE_CLOSE_CODES.signedOut, reason: 'session expired' });
    expect(received.at(-1)).toEqual({ type: 'signed-out' });
  });

  it('closes a socket opened with an id token when that token expires, with close code 4401', async () => {
    const user = await signUp(server);
    const database = await openServerDatabase(server);
    let key: Uint8Array;
    try {
      const row = await database.db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'id_token_hmac_key')
        .executeTakeFirstOrThrow();
      key = Buffer.from(row.value, 'base64url');
    } finally {
      await database.close();
    }
    // A token like the server's own, with only seconds left.
    const shortLived = await new SignJWT({ sid: hashSessionToken(user.cookie.replace(/^dojo_session=/, '')) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.uid)
      .setIssuer('the-dojo')
      .setIssuedAt()
      .setExpirationTime(Math.ceil((Date.now() + EXPIRES_IN_MS) / 1000))
      .sign(key);
    const { received, closed } = await openLive(server, { authorization: `Bearer ${shortLived}` });
    expect(await closed).toEqual({ code: LIVE_CLOSE_CODES.tokenExpired, reason: 'id token expired' });
    expect(received).not.toContainEqual({ type: 'signed-out' });
  });

  it('refuses display names with control, bidi or zero-width characters at signup', async () => {
    for (const displayName of ['evil\u202Etxt.exe', 'ad\u200Bmin', 'line\nbreak']) {
      const response = await postSignup(server.url, { email: uniqueEmail('names'), displayName });
      expect(response.status, JSON.stringify(displayName)).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          code: 'invalid-argument',
          message: messages.displayNameInvisible,
          fields: { displayName: messages.displayNameInvisible },
          requestId: expect.any(String),
        },
      });
    }
  });
});

describe('the session cookie behind an https PUBLIC_URL', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The proxy in front speaks https; the app itself is reached over plain http and trusts no proxy.
    server = await startTestServer({ configOverrides: { publicUrl: 'https://dojo.example' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is Secure (and still httpOnly and SameSite=Lax)', async () => {
    const response = await postSignup(server.url);
    expect(response.status).toBe(201);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('dojo_session='));
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
  });
});

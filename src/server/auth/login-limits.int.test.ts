import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_WINDOW_MS, messages } from '../../common';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postJson, postSignup, uniqueEmail } from '../../../test/support/fixtures';

const PASSWORD = 'correct horse battery';
const PER_ADDRESS = 3;
const PER_ACCOUNT = 3;

let nextAddress = 0;
/** A client address no other attempt in this file uses (TEST-NET-2). */
const freshAddress = (): string => {
  nextAddress += 1;
  return `198.51.100.${nextAddress % 250}`;
};

const logIn = (server: TestServer, email: string, password: string, headers: Record<string, string> = {}) =>
  postJson(server.url, '/api/auth/login', { email, password }, headers);

async function signUp(server: TestServer): Promise<string> {
  const email = uniqueEmail('limits');
  // From an address of its own: signups have a per-address budget too.
  const response = await postSignup(
    server.url,
    { email, password: PASSWORD },
    { 'x-forwarded-for': freshAddress() },
  );
  expect(response.status).toBe(201);
  return email;
}

describe('client addresses without TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    // PUBLIC_URL alone used to trust every X-Forwarded-For hop.
    server = await startTestServer({
      configOverrides: { publicUrl: 'https://dojo.example', authRateLimitPerMinute: PER_ADDRESS },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('gives a spoofed X-Forwarded-For no fresh login budget', async () => {
    const statuses = [];
    for (let attempt = 0; attempt <= PER_ADDRESS; attempt += 1) {
      const response = await logIn(server, uniqueEmail(), 'wrong password', {
        'x-forwarded-for': freshAddress(),
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('with TRUST_PROXY naming the proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      configOverrides: {
        trustProxy: ['127.0.0.1'],
        authRateLimitPerMinute: PER_ADDRESS,
        loginFailuresPerAccount: PER_ACCOUNT,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keys the per-address limit on the address the proxy reports', async () => {
    const client = freshAddress();
    for (let attempt = 0; attempt < PER_ADDRESS; attempt += 1) {
      expect((await logIn(server, uniqueEmail(), 'wrong', { 'x-forwarded-for': client })).status).toBe(401);
    }
    expect((await logIn(server, uniqueEmail(), 'wrong', { 'x-forwarded-for': client })).status).toBe(429);
    const other = await logIn(server, uniqueEmail(), 'wrong', { 'x-forwarded-for': freshAddress() });
    expect(other.status).toBe(401);
  });

  it('limits failed logins per account over every address, with a clear message and Retry-After', async () => {
    const email = await signUp(server);
    const bystander = await signUp(server);
    const from = (password: string, account = email) =>
      logIn(server, account, password, { 'x-forwarded-for': freshAddress() });

    for (let attempt = 0; attempt < PER_ACCOUNT; attempt += 1) {
      expect((await from('wrong password')).status).toBe(401);
    }
    const limited = await from('wrong password');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      error: {
        code: 'too-many-requests',
        message: messages.tooManyLoginFailures,
        requestId: expect.any(String),
      },
    });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_FAILURE_WINDOW_MS / 1000);

    // Past the limit the right password is refused as well: a guess there teaches nothing.
    expect((await from(PASSWORD)).status).toBe(429);
    expect((await from(PASSWORD, bystander)).status).toBe(200);
  });

  it('counts concurrent guesses exactly', async () => {
    const email = await signUp(server);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        logIn(server, email, 'wrong password', { 'x-forwarded-for': freshAddress() }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('does not count successful logins', async () => {
    const email = await signUp(server);
    for (let attempt = 0; attempt < PER_ACCOUNT + 2; attempt += 1) {
      expect((await logIn(server, email, PASSWORD, { 'x-forwarded-for': freshAddress() })).status).toBe(200);
    }
    expect((await logIn(server, email, 'wrong', { 'x-forwarded-for': freshAddress() })).status).toBe(401);
  });

  it('lets the owner in again once the window has ended', async () => {
    const email = await signUp(server);
    for (let attempt = 0; attempt <= PER_ACCOUNT; attempt += 1) {
      await logIn(server, email, 'wrong password', { 'x-forwarded-for': freshAddress() });
    }
    expect((await logIn(server, email, PASSWORD, { 'x-forwarded-for': freshAddress() })).status).toBe(429);

    // Ends every running per-account window now rather than waiting 15 minutes.
    const database = await openServerDatabase(server);
    try {
      await database.db
        .updateTable('rate_limits')
        .set({ reset_at: sql<number>`reset_at - ${LOGIN_FAILURE_WINDOW_MS}` })
        .where('key', 'like', 'login-failures:%')
        .execute();
    } finally {
      await database.close();
    }
    expect((await logIn(server, email, PASSWORD, { 'x-forwarded-for': freshAddress() })).status).toBe(200);
  });
});

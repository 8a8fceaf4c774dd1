import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { postSignup, sessionCookieOf } from '../../../test/support/fixtures';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * Every route that may change state is limited, by construction (docs/decisions/045-every-write-limited-per-user.md):
 * each registered POST, PUT, PATCH and DELETE is called by a signed-in member until it answers 429, with
 * every limit of the server set to 2. A new write route that is neither limited nor listed here fails.
 */

/** The writes with no limit, and why; each also says so in its route's `config.writeLimitExempt`. */
const EXEMPT: Record<string, string> = {
  'POST /api/auth/logout': 'refusing it would keep alive a session its owner wants ended',
  'POST /api/auth/token': 'writes nothing; every tab asks for a token as it opens and reconnects',
  'POST /api/notifications/unsubscribe':
    'authorized by a signed link, posted by mail providers from shared addresses; only turns email off',
};

/** App Check tokens: 30 a minute per address, fixed (storage-routes.ts); the most any route needs. */
const MOST_REQUESTS_BEFORE_REFUSAL = 31;
const LIMIT = 2;

let server: TestServer;
let cookie: string;

beforeAll(async () => {
  server = await startTestServer({
    configOverrides: {
      authRateLimitPerMinute: LIMIT,
      projectCreatesPerMinute: LIMIT,
      commentsPerMinute: LIMIT,
      uploadsPerMinute: LIMIT,
      writesPerMinute: LIMIT,
    },
  });
  // The first signup is the admin; the member signs up second, within the signup limit of 2.
  expect((await postSignup(server.url, { displayName: 'Admin' })).status).toBe(201);
  const member = await postSignup(server.url, { displayName: 'Member' });
  expect(member.status).toBe(201);
  cookie = sessionCookieOf(member);
});
afterAll(async () => {
  await server?.stop();
});

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Calls the route until it refuses; the limit runs before the route reads its input, so any path does. */
async function firstRefusal(method: string, pattern: string): Promise<Response | undefined> {
  const path = pattern.replace(/:\w+/g, 'x').replace(/\*$/, 'x');
  for (let attempt = 0; attempt < MOST_REQUESTS_BEFORE_REFUSAL + 1; attempt += 1) {
    const response = await fetch(`${server.url}${path}`, { method, headers: { cookie } });
    if (response.status === 429) return response;
    await response.body?.cancel();
  }
  return undefined;
}

describe('every write is limited', () => {
  it('refuses every registered write route with 429, Retry-After and a catalogue message, but the listed exemptions', async () => {
    const writes = [
      ...new Set(
        server.app
          .registeredRoutes()
          .filter((route) => !READ_METHODS.has(route.method))
          .map((route) => `${route.method} ${route.url}`),
      ),
    ];
    for (const exempt of Object.keys(EXEMPT)) expect(writes, 'an exemption of no route').toContain(exempt);
    const limited = writes.filter((route) => !(route in EXEMPT));
    // Project edits, completes, comments, profile, sessions, admin changes, storage, auth…: not a handful.
    expect(limited.length).toBeGreaterThan(20);

    const unlimited: string[] = [];
    for (const route of limited) {
      const [method = '', pattern = ''] = route.split(' ');
      const refused = await firstRefusal(method, pattern);
      if (!refused) {
        unlimited.push(route);
        continue;
      }
      expect(Number(refused.headers.get('retry-after')), route).toBeGreaterThan(0);
      const { error } = (await refused.json()) as { error: { code: unknown; message: string } };
      // The storage protocol's body carries the status as its code.
      expect(['too-many-requests', 429], route).toContain(error.code);
      expect([messages.tooManyWrites, messages.tooManyAttempts], route).toContain(error.message);
    }
    expect(unlimited, 'write routes neither limited nor listed in EXEMPT').toEqual([]);
  });
});

describe('password checks of a signed-in member', () => {
  const PER_MINUTE = 3;
  let proxied: TestServer;
  let nextAddress = 0;
  /** A client address no other request in this file uses (TEST-NET-2), as the trusted proxy reports it. */
  const freshAddress = (): Record<string, string> => {
    nextAddress += 1;
    return { 'x-forwarded-for': `198.51.100.${nextAddress}` };
  };
  const signUp = async (displayName: string): Promise<string> => {
    const response = await postSignup(proxied.url, { displayName }, freshAddress());
    expect(response.status).toBe(201);
    return sessionCookieOf(response);
  };
  const changePassword = (session: string, from: Record<string, string>) =>
    fetch(`${proxied.url}/api/account/password`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json', ...from },
      body: JSON.stringify({ currentPassword: 'a wrong guess', newPassword: 'another horse battery' }),
    });

  beforeAll(async () => {
    proxied = await startTestServer({
      configOverrides: { trustProxy: ['127.0.0.1'], authRateLimitPerMinute: PER_MINUTE },
    });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it('are limited per member, from however many addresses, and not per address', async () => {
    const [guesser, neighbour] = [await signUp('Guesser'), await signUp('Neighbour')];
    const lastAddress = freshAddress();
    const statuses: number[] = [];
    for (let guess = 0; guess < PER_MINUTE; guess += 1) {
      statuses.push((await changePassword(guesser, freshAddress())).status);
    }
    const refused = await changePassword(guesser, lastAddress);
    expect(statuses).not.toContain(429);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      messages.tooManyAttempts,
    );
    // Another member at that same address still has their own budget.
    expect((await changePassword(neighbour, lastAddress)).status).not.toBe(429);
  });
});

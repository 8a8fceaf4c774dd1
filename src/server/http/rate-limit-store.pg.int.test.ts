import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { startTwoInstances, type TestServer, type TwoInstances } from '../../../test/support/test-server';
import { postJson, postSignup, uniqueEmail } from '../../../test/support/fixtures';

const LIMIT = 4;

/**
 * Scale-out: login and signup limits are counted in PostgreSQL, so spreading attempts over instances buys
 * no extra budget (docs/decisions/009-shared-rate-limits.md). Both instances see every test client as
 * 127.0.0.1, which is the rate-limit key.
 */
describe('rate limits shared by two instances on one PostgreSQL database', () => {
  let instances: TwoInstances;
  let first: TestServer;
  let second: TestServer;
  /** Direct access to the shared database, to start each test with fresh budgets. */
  let admin: pg.Client;

  beforeAll(async () => {
    instances = await startTwoInstances({ authRateLimitPerMinute: LIMIT });
    ({ first, second } = instances);
    admin = new pg.Client({ connectionString: instances.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await instances?.stop();
  });
  beforeEach(async () => {
    await admin.query('delete from rate_limits');
  });

  const instance = (attempt: number) => (attempt % 2 === 0 ? first : second);
  const logIn = (server: TestServer) =>
    postJson(server.url, '/api/auth/login', { email: uniqueEmail(), password: 'whatever-password' });

  async function expectTooManyAttempts(response: Response): Promise<void> {
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      error: { code: 'too-many-requests', message: messages.tooManyAttempts, requestId: expect.any(String) },
    });
  }

  it('counts concurrent attempts on both instances exactly', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, (_, attempt) => logIn(instance(attempt))));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10 - LIMIT);
  });

  it('gives login attempts alternating between the instances one budget', async () => {
    const seen = [];
    for (let attempt = 0; attempt < LIMIT; attempt += 1) {
      const response = await logIn(instance(attempt));
      seen.push([response.status, response.headers.get('x-ratelimit-remaining')]);
    }
    expect(seen).toEqual([
      [401, '3'],
      [401, '2'],
      [401, '1'],
      [401, '0'],
    ]);

    const limited = await logIn(first);
    const reset = Number(limited.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
    await expectTooManyAttempts(limited);
    await expectTooManyAttempts(await logIn(second));
  });

  it('keeps login, signup and App Check budgets apart', async () => {
    for (let attempt = 0; attempt < LIMIT; attempt += 1) await logIn(instance(attempt));
    await expectTooManyAttempts(await logIn(second));

    for (let attempt = 0; attempt < LIMIT; attempt += 1)
      expect((await postSignup(instance(attempt).url, { email: 'bad' })).status).toBe(400);
    await expectTooManyAttempts(await postSignup(first.url, { email: uniqueEmail('limited') }));
    await expectTooManyAttempts(await postSignup(second.url, { email: uniqueEmail('limited') }));

    const appCheck = await fetch(`${first.url}/api/app-check/token`, { method: 'POST' });
    expect(appCheck.status).toBe(200);
  });

  it('starts a new window on every instance once the current one has ended', async () => {
    for (let attempt = 0; attempt < LIMIT; attempt += 1) await logIn(instance(attempt));
    await expectTooManyAttempts(await logIn(first));

    // Ends the window now rather than waiting a minute.
    await admin.query('update rate_limits set reset_at = reset_at - 60000');

    const again = await logIn(second);
    expect(again.status).toBe(401);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));
    expect((await logIn(first)).status).toBe(401);
  });

  it('lets attempts through when the counters cannot be kept (fails open)', async () => {
    await admin.query('alter table rate_limits rename to rate_limits_away');
    try {
      for (let attempt = 0; attempt < LIMIT + 2; attempt += 1) {
        expect((await logIn(instance(attempt))).status).toBe(401);
      }
    } finally {
      await admin.query('alter table rate_limits_away rename to rate_limits');
    }
    for (let attempt = 0; attempt < LIMIT; attempt += 1) await logIn(instance(attempt));
    await expectTooManyAttempts(await logIn(first));
  });

  it('deletes counters whose window has ended, so the table stays small', async () => {
    await admin.query(
      `insert into rate_limits (key, count, reset_at) values ('ended', 3, 1), ('running', 1, 9007199254740991)`,
    );
    // A fresh app sweeps on its first counted request, then at most once a minute.
    await first.restart();
    expect((await logIn(first)).status).toBe(401);
    const { rows } = await admin.query<{ key: string }>('select key from rate_limits order by key');
    // The login's per-address counter, its per-account counter, and the running window; not the ended one.
    expect(rows.map((row) => row.key)).toEqual([
      expect.stringContaining('/api/auth/login'),
      expect.stringMatching(/^login-failures:/),
      'running',
    ]);
  });
});

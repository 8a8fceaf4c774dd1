import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { startTwoInstances, type TestServer, type TwoInstances } from '../../../test/support/test-server';
import { postJson, postSignup, uniqueEmail } from '../../../test/support/fixtures';

const PER_ACCOUNT = 4;
const PASSWORD = 'correct horse battery';

/**
 * Scale-out: failed logins per account are counted in PostgreSQL, so spreading guesses over instances and
 * addresses buys no extra budget. Each attempt comes from its own address through the trusted proxy
 * (127.0.0.1), so the per-address limit never decides.
 */
describe('failed logins per account, shared by two instances on one PostgreSQL database', () => {
  let instances: TwoInstances;
  let first: TestServer;
  let second: TestServer;
  let nextAddress = 0;
  const freshAddress = (): Record<string, string> => {
    nextAddress += 1;
    return { 'x-forwarded-for': `203.0.113.${nextAddress % 250}` };
  };

  beforeAll(async () => {
    instances = await startTwoInstances({
      trustProxy: ['127.0.0.1'],
      authRateLimitPerMinute: 2,
      loginFailuresPerAccount: PER_ACCOUNT,
    });
    ({ first, second } = instances);
  });
  afterAll(async () => {
    await instances?.stop();
  });

  const instance = (attempt: number) => (attempt % 2 === 0 ? first : second);
  const logIn = (server: TestServer, email: string, password: string) =>
    postJson(server.url, '/api/auth/login', { email, password }, freshAddress());

  it('refuses the account on every instance once guesses spread over both have spent its budget', async () => {
    const email = uniqueEmail('shared');
    expect((await postSignup(first.url, { email, password: PASSWORD }, freshAddress())).status).toBe(201);

    for (let attempt = 0; attempt < PER_ACCOUNT; attempt += 1) {
      expect((await logIn(instance(attempt), email, 'wrong password')).status).toBe(401);
    }
    for (const server of [first, second]) {
      const limited = await logIn(server, email, PASSWORD);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await limited.json()).toEqual({
        error: {
          code: 'too-many-requests',
          message: messages.tooManyLoginFailures,
          requestId: expect.any(String),
        },
      });
    }
  });

  it('counts concurrent guesses on both instances exactly', async () => {
    const email = uniqueEmail('concurrent');
    expect((await postSignup(second.url, { email, password: PASSWORD }, freshAddress())).status).toBe(201);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, attempt) => logIn(instance(attempt), email, 'wrong password')),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(PER_ACCOUNT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10 - PER_ACCOUNT);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postJson, postSignup, uniqueEmail } from '../../../test/support/fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ configOverrides: { authRateLimitPerMinute: 3 } });
});
afterAll(async () => {
  await server.stop();
});

it('rate-limits login attempts with a clear message', async () => {
  const attempt = () =>
    postJson(server.url, '/api/auth/login', { email: uniqueEmail(), password: 'whatever-password' });
  const statuses = [];
  for (let index = 0; index < 3; index += 1) statuses.push((await attempt()).status);
  expect(statuses).toEqual([401, 401, 401]);
  const limited = await attempt();
  expect(limited.status).toBe(429);
  expect(await limited.json()).toEqual({
    error: { code: 'too-many-requests', message: messages.tooManyAttempts, requestId: expect.any(String) },
  });
});

it('rate-limits signups separately, and a refused signup creates nothing', async () => {
  const email = uniqueEmail('limited');
  for (let index = 0; index < 3; index += 1)
    expect((await postSignup(server.url, { email: 'bad' })).status).toBe(400);
  const limited = await postSignup(server.url, { email });
  expect(limited.status).toBe(429);
  const login = await postJson(server.url, '/api/auth/login', { email, password: 'correct horse battery' });
  expect(login.status).toBe(429);
});

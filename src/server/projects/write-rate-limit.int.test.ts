import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type CreateProjectInput } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postJson, postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { signUpStorageUser, testBytes, uploadMultipart } from '../storage/testing/storage-http';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    configOverrides: { projectCreatesPerMinute: 2, commentsPerMinute: 3, uploadsPerMinute: 1 },
  });
});
afterAll(async () => {
  await server.stop();
});

async function newUser(): Promise<{ uid: string; cookie: string; email: string; password: string }> {
  const email = uniqueEmail('writer');
  const password = 'correct horse battery';
  const response = await postSignup(server.url, { email, password });
  expect(response.status).toBe(201);
  const { user } = (await response.json()) as { user: { uid: string } };
  return { uid: user.uid, cookie: sessionCookieOf(response), email, password };
}

const project = (uid: string): CreateProjectInput => ({
  name: 'Limited',
  details: 'One of a few.',
  dueDate: '2030-01-01',
  category: 'sales',
  assignedUserIds: [uid],
});

async function expectTooMany(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await response.json()).toEqual({
    error: { code: 'too-many-requests', message: messages.tooManyWrites, requestId: expect.any(String) },
  });
}

describe('per-user write limits', () => {
  it('limits project creates per user, from any session, and not other users', async () => {
    const writer = await newUser();
    for (let index = 0; index < 2; index += 1) {
      expect(
        (await postJson(server.url, '/api/projects', project(writer.uid), { cookie: writer.cookie })).status,
      ).toBe(201);
    }
    await expectTooMany(
      await postJson(server.url, '/api/projects', project(writer.uid), { cookie: writer.cookie }),
    );

    // A fresh session of the same user shares the user's budget.
    const login = await postJson(server.url, '/api/auth/login', {
      email: writer.email,
      password: writer.password,
    });
    await expectTooMany(
      await postJson(server.url, '/api/projects', project(writer.uid), { cookie: sessionCookieOf(login) }),
    );

    const other = await newUser();
    expect(
      (await postJson(server.url, '/api/projects', project(other.uid), { cookie: other.cookie })).status,
    ).toBe(201);
  });

  it('limits comments per user, and refuses before storing anything', async () => {
    const owner = await newUser();
    const created = await postJson(server.url, '/api/projects', project(owner.uid), { cookie: owner.cookie });
    const { project: made } = (await created.json()) as { project: { id: string } };
    const writer = await newUser();
    const comment = (content: string) =>
      postJson(server.url, `/api/projects/${made.id}/comments`, { content }, { cookie: writer.cookie });
    for (const content of ['one', 'two', 'three']) expect((await comment(content)).status).toBe(201);
    await expectTooMany(await comment('four'));
    const page = await fetch(`${server.url}/api/projects/${made.id}/comments`, {
      headers: { cookie: writer.cookie },
    });
    const { comments } = (await page.json()) as { comments: { content: string }[] };
    expect(comments.map((stored) => stored.content)).toEqual(['three', 'two', 'one']);
  });

  it('limits uploads per user with the storage protocol’s error body', async () => {
    const user = await signUpStorageUser(server.url);
    const first = await uploadMultipart(server.url, `files/${user.uid}/a.bin`, testBytes(10), {
      headers: user.auth,
    });
    expect(first.status).toBe(200);
    const second = await uploadMultipart(server.url, `files/${user.uid}/b.bin`, testBytes(10), {
      headers: user.auth,
    });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await second.json()).toEqual({
      error: { code: 429, message: messages.tooManyWrites, requestId: expect.any(String) },
    });
  });
});

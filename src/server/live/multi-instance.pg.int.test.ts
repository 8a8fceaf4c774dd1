import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  projectCommentsQuery,
  type Comment,
  type Project,
  type UserProfile,
} from '../../common';
import { SESSION_CACHE_TTL_MS } from '../auth/session-cache';
import { startTwoInstances, type TestServer, type TwoInstances } from '../../../test/support/test-server';
import { LiveRecorder, signUpClient, tomorrow, type SignedInClient } from '../../../test/support/clients';
import { postJson, sessionCookieOf } from '../../../test/support/fixtures';

/**
 * Scale-out: two instances on one PostgreSQL database. Changes made through one reach subscribers of
 * the other through LISTEN/NOTIFY. SQLite is single-process by design, so only the PostgreSQL project
 * runs `*.pg.int.test.ts` files (vitest.config.ts).
 */
const cookieOf = (client: SignedInClient) => client.client.transport.cookieHeader() ?? '';

describe('two instances on one PostgreSQL database', () => {
  let instances: TwoInstances;
  let first: TestServer;
  let second: TestServer;
  let alice: SignedInClient;
  let bob: SignedInClient;

  beforeAll(async () => {
    instances = await startTwoInstances({ presenceGraceMs: 2000 });
    ({ first, second } = instances);
    alice = await signUpClient(first.url, 'alice');
    bob = await signUpClient(second.url, 'bob');
  });
  afterAll(async () => {
    alice.client.close();
    bob.client.close();
    await instances.stop();
  });

  it('delivers a project created on one instance to a subscriber on the other', async () => {
    const list = new LiveRecorder<Project>(alice.client, dashboardQuery('all', alice.user.uid, 50));
    // Filtered lists are matched from the fields the NOTIFY payload carries, without a read-back.
    const mine = new LiveRecorder<Project>(alice.client, dashboardQuery('mine', alice.user.uid, 50));
    const design = new LiveRecorder<Project>(alice.client, dashboardQuery('design', alice.user.uid, 50));
    await Promise.all([list.until(() => true), mine.until(() => true), design.until(() => true)]);
    const project = await bob.client.projects.create({
      name: 'Cross-instance',
      details: 'made on the second instance',
      dueDate: tomorrow(),
      category: 'design',
      assignedUserIds: [alice.user.uid],
    });
    await list.until((docs) => docs.some((p) => p.id === project.id), 10_000, 'the project on instance one');
    await mine.until((docs) => docs.some((p) => p.id === project.id), 10_000, 'in alice’s own list');
    await design.until((docs) => docs.some((p) => p.id === project.id), 10_000, 'in the design list');
    const page = new LiveRecorder<Project>(alice.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    const comments = new LiveRecorder<Comment>(alice.client, projectCommentsQuery(project.id, 20));
    await Promise.all([page.until((docs) => docs.length === 1), comments.until(() => true)]);
    await bob.client.projects.addComment(project.id, { content: 'hello from two' });
    await comments.until((docs) => docs[0]?.content === 'hello from two', 10_000, 'the comment on one');
    const read = async () =>
      (await fetch(`${first.url}/api/projects/${project.id}`, { headers: { cookie: cookieOf(alice) } }))
        .status;
    // Read (and cached) on instance one before the other instance completes it.
    expect(await read()).toBe(200);
    await bob.client.projects.complete(project.id);
    await page.until((docs) => docs.length === 0, 10_000, 'deletion seen on instance one');
    // The same notification that told the live page dropped the cached copy.
    expect(await read()).toBe(404);
    await comments.until((docs) => docs.length === 0, 10_000, 'its comments gone on instance one');
    await mine.until((docs) => !docs.some((p) => p.id === project.id), 10_000, 'gone from alice’s list');
  });

  it('accepts the id token minted by one instance on the other (shared key)', async () => {
    const token = await alice.client.auth.getIdToken();
    const response = await fetch(`${second.url}/api/users`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  it('ends a session on the other instance too, though each instance had it cached', async () => {
    const login = await postJson(first.url, '/api/auth/login', {
      email: alice.email,
      password: alice.password,
    });
    const cookie = sessionCookieOf(login);
    const status = async (url: string) => (await fetch(`${url}/api/users`, { headers: { cookie } })).status;
    // Both instances have looked the session up (and keep it for a few seconds).
    expect(await status(first.url)).toBe(200);
    expect(await status(second.url)).toBe(200);
    const logout = await fetch(`${first.url}/api/auth/logout`, { method: 'POST', headers: { cookie } });
    expect(logout.status).toBe(204);
    expect(await status(first.url)).toBe(401);
    // The other instance learns it by NOTIFY, well before its cached copy would go stale by age.
    const deadline = Date.now() + SESSION_CACHE_TTL_MS / 2;
    let last = await status(second.url);
    while (last !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      last = await status(second.url);
    }
    expect(last).toBe(401);
  });

  it('keeps presence across instances: online while connected to either, offline after both close', async () => {
    const users = new LiveRecorder<UserProfile>(alice.client, { kind: 'query', collection: 'users' });
    await users.until((docs) => docs.find((u) => u.id === bob.user.uid)?.online === true);
    const bobsUsers = new LiveRecorder<UserProfile>(bob.client, { kind: 'query', collection: 'users' });
    await bobsUsers.until(() => true);
    bob.client.close();
    await users.until(
      (docs) => docs.find((u) => u.id === bob.user.uid)?.online === false,
      10_000,
      'bob offline on instance one',
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  projectCommentsQuery,
  type Comment,
  type Project,
  type UserProfile,
} from '../../common';
import { startTwoInstances, type TestServer, type TwoInstances } from '../../../test/support/test-server';
import {
  createProjectAs,
  LiveRecorder,
  newClient,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { postJson, sessionCookieOf } from '../../../test/support/fixtures';
import { WAIT_MS } from '../../../test/support/poll';

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
    const project = await createProjectAs(bob, {
      name: 'Cross-instance',
      details: 'made on the second instance',
      assignedUserIds: [alice.user.uid],
    });
    await list.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'the project on instance one');
    await mine.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'in alice’s own list');
    await design.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'in the design list');
    const page = new LiveRecorder<Project>(alice.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    const comments = new LiveRecorder<Comment>(alice.client, projectCommentsQuery(project.id, 20));
    await Promise.all([page.until((docs) => docs.length === 1), comments.until(() => true)]);
    await bob.client.projects.addComment(project.id, { content: 'hello from two' });
    await comments.until((docs) => docs[0]?.content === 'hello from two', WAIT_MS, 'the comment on one');
    const read = async () =>
      (await fetch(`${first.url}/api/projects/${project.id}`, { headers: { cookie: cookieOf(alice) } }))
        .status;
    // Read (and cached) on instance one before the other instance completes it.
    expect(await read()).toBe(200);
    await bob.client.projects.complete(project.id);
    await page.until((docs) => docs.length === 0, WAIT_MS, 'deletion seen on instance one');
    // The same notification that told the live page dropped the cached copy.
    expect(await read()).toBe(404);
    await comments.until((docs) => docs.length === 0, WAIT_MS, 'its comments gone on instance one');
    await mine.until((docs) => !docs.some((p) => p.id === project.id), WAIT_MS, 'gone from alice’s list');
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
    // The other instance learns it by NOTIFY, not from its cached copy going stale by age: a project made
    // on the first instance after the logout is notified after it on the same channel, so once bob's list
    // on the second instance shows it, the second instance has dropped the session too.
    const bobsList = new LiveRecorder<Project>(bob.client, dashboardQuery('all', bob.user.uid, 50));
    await bobsList.until(() => true);
    const marker = await createProjectAs(alice, {
      name: 'After the logout',
      details: 'notified after the session ended',
    });
    await bobsList.until((docs) => docs.some((p) => p.id === marker.id), WAIT_MS, 'the marker on two');
    expect(await status(second.url)).toBe(401);
    bobsList.unsubscribe();
  });

  it('shows a member on one instance the presence of a member who signs in and out on the other', async () => {
    // The subscriber is on instance one; carol signs up, out and in only through instance two, so each
    // change below is written and published there and can reach alice only across instances.
    const users = new LiveRecorder<UserProfile>(alice.client, { kind: 'query', collection: 'users' });
    await users.until(() => true);
    const carol = await signUpClient(second.url, 'carol');
    const carolOnline = (online: boolean) => (docs: UserProfile[]) =>
      docs.find((u) => u.id === carol.user.uid)?.online === online;
    await users.until(carolOnline(true), WAIT_MS, 'carol, signed up on two, online on one');
    await carol.client.auth.logOut();
    await users.until(carolOnline(false), WAIT_MS, 'carol, logged out on two, offline on one');
    // Back online: only instance two, which takes the login, can set that.
    const again = newClient(second.url);
    await again.auth.logIn({ email: carol.email, password: carol.password });
    await users.until(carolOnline(true), WAIT_MS, 'carol, logged in on two, online on one');
    again.close();
    await users.until(carolOnline(false), WAIT_MS, 'carol, her last tab closed on two, offline on one');
    users.unsubscribe();
  });
});

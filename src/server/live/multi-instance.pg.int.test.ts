import { describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  projectCommentsQuery,
  type Comment,
  type Project,
  type UserProfile,
} from '../../common';
import {
  createProjectAs,
  dashboardsOf,
  LiveRecorder,
  newClient,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { useTwoInstanceTeam } from '../../../test/support/test-team';
import { postJson, sessionCookieOf } from '../../../test/support/fixtures';
import { WAIT_MS } from '../../../test/support/poll';

/**
 * Scale-out: two instances on one PostgreSQL database. Changes made through one reach subscribers of
 * the other through LISTEN/NOTIFY. SQLite is single-process by design, so only the PostgreSQL project
 * runs `*.pg.int.test.ts` files (vitest.config.ts).
 */
const cookieOf = (client: SignedInClient) => client.client.transport.cookieHeader() ?? '';

describe('two instances on one PostgreSQL database', () => {
  const team = useTwoInstanceTeam(
    { alice: ['alice', 'first'], bob: ['bob', 'second'] },
    { presenceGraceMs: 2000 },
  );

  it('delivers a project created on one instance to a subscriber on the other', async () => {
    // Filtered lists are matched from the fields the NOTIFY payload carries, without a read-back.
    const { all: list, mine, design } = await dashboardsOf(team.alice, ['all', 'mine', 'design']);
    const project = await createProjectAs(team.bob, {
      name: 'Cross-instance',
      details: 'made on the second instance',
      assignedUserIds: [team.alice.user.uid],
    });
    await list.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'the project on instance one');
    await mine.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'in alice’s own list');
    await design.until((docs) => docs.some((p) => p.id === project.id), WAIT_MS, 'in the design list');
    const page = new LiveRecorder<Project>(team.alice.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    const comments = new LiveRecorder<Comment>(team.alice.client, projectCommentsQuery(project.id, 20));
    await Promise.all([page.until((docs) => docs.length === 1), comments.until(() => true)]);
    await team.bob.client.projects.addComment(project.id, { content: 'hello from two' });
    await comments.until((docs) => docs[0]?.content === 'hello from two', WAIT_MS, 'the comment on one');
    const read = async () =>
      (
        await fetch(`${team.instances.first.url}/api/projects/${project.id}`, {
          headers: { cookie: cookieOf(team.alice) },
        })
      ).status;
    // Read (and cached) on instance one before the other instance completes it.
    expect(await read()).toBe(200);
    await team.bob.client.projects.complete(project.id);
    await page.until((docs) => docs.length === 0, WAIT_MS, 'deletion seen on instance one');
    // The same notification that told the live page dropped the cached copy.
    expect(await read()).toBe(404);
    await comments.until((docs) => docs.length === 0, WAIT_MS, 'its comments gone on instance one');
    await mine.until((docs) => !docs.some((p) => p.id === project.id), WAIT_MS, 'gone from alice’s list');
  });

  it('accepts the id token minted by one instance on the other (shared key)', async () => {
    const token = await team.alice.client.auth.getIdToken();
    const response = await fetch(`${team.instances.second.url}/api/users`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  it('ends a session on the other instance too, though each instance had it cached', async () => {
    const login = await postJson(team.instances.first.url, '/api/auth/login', {
      email: team.alice.email,
      password: team.alice.password,
    });
    const cookie = sessionCookieOf(login);
    const status = async (url: string) => (await fetch(`${url}/api/users`, { headers: { cookie } })).status;
    // Both instances have looked the session up (and keep it for a few seconds).
    expect(await status(team.instances.first.url)).toBe(200);
    expect(await status(team.instances.second.url)).toBe(200);
    const logout = await fetch(`${team.instances.first.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie },
    });
    expect(logout.status).toBe(204);
    expect(await status(team.instances.first.url)).toBe(401);
    // The other instance learns it by NOTIFY, not from its cached copy going stale by age: a project made
    // on the first instance after the logout is notified after it on the same channel, so once bob's list
    // on the second instance shows it, the second instance has dropped the session too.
    const bobsList = new LiveRecorder<Project>(team.bob.client, dashboardQuery('all', team.bob.user.uid, 50));
    await bobsList.until(() => true);
    const marker = await createProjectAs(team.alice, {
      name: 'After the logout',
      details: 'notified after the session ended',
    });
    await bobsList.until((docs) => docs.some((p) => p.id === marker.id), WAIT_MS, 'the marker on two');
    expect(await status(team.instances.second.url)).toBe(401);
    bobsList.unsubscribe();
  });

  it('shows a member on one instance the presence of a member who signs in and out on the other', async () => {
    // The subscriber is on instance one; carol signs up, out and in only through instance two, so each
    // change below is written and published there and can reach alice only across instances.
    const users = new LiveRecorder<UserProfile>(team.alice.client, { kind: 'query', collection: 'users' });
    await users.until(() => true);
    const carol = await signUpClient(team.instances.second.url, 'carol');
    const carolOnline = (online: boolean) => (docs: UserProfile[]) =>
      docs.find((u) => u.id === carol.user.uid)?.online === online;
    await users.until(carolOnline(true), WAIT_MS, 'carol, signed up on two, online on one');
    await carol.client.auth.logOut();
    await users.until(carolOnline(false), WAIT_MS, 'carol, logged out on two, offline on one');
    // Back online: only instance two, which takes the login, can set that.
    const again = newClient(team.instances.second.url);
    await again.auth.logIn({ email: carol.email, password: carol.password });
    await users.until(carolOnline(true), WAIT_MS, 'carol, logged in on two, online on one');
    again.close();
    await users.until(carolOnline(false), WAIT_MS, 'carol, her last tab closed on two, offline on one');
    users.unsubscribe();
  });
});

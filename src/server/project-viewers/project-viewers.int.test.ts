import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectViewersQuery, type ProjectViewer } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import {
  LiveRecorder,
  newClient,
  signUpClient,
  tomorrow,
  type SignedInClient,
} from '../../../test/support/clients';
import { WAIT_MS } from '../../../test/support/poll';

/**
 * Who is looking (docs/decisions/027-mentions-and-who-is-looking.md): subscribing is looking. The grace
 * period is long, so a departure seen within the waits below comes from the socket or the unsubscribe,
 * never from the freshness sweep (the two-instance test covers that).
 */
let server: TestServer;
let alice: SignedInClient;
let bob: SignedInClient;
let projectId: string;

const idsOf = (docs: ProjectViewer[]) => docs.map((viewer) => viewer.id);

beforeAll(async () => {
  server = await startTestServer({ configOverrides: { presenceGraceMs: 60_000 } });
  alice = await signUpClient(server.url, 'alice');
  bob = await signUpClient(server.url, 'bob');
  const project = await alice.client.projects.create({
    name: 'Looked at',
    details: 'who has it open',
    dueDate: tomorrow(),
    category: 'design',
    assignedUserIds: [alice.user.uid],
  });
  projectId = project.id;
});
afterAll(async () => {
  alice.client.close();
  bob.client.close();
  await server.stop();
});

describe('who is looking at a project', () => {
  it('shows a member while they follow the project, and not after they unsubscribe', async () => {
    const seenByAlice = new LiveRecorder<ProjectViewer>(alice.client, projectViewersQuery(projectId));
    await seenByAlice.until((docs) => idsOf(docs).includes(alice.user.uid), WAIT_MS, 'alice herself');
    const bobLooking = new LiveRecorder<ProjectViewer>(bob.client, projectViewersQuery(projectId));
    const docs = await seenByAlice.until((all) => idsOf(all).includes(bob.user.uid), WAIT_MS, 'bob looking');
    expect(docs.find((viewer) => viewer.id === bob.user.uid)).toMatchObject({
      displayName: 'bob',
      projectId,
    });
    bobLooking.unsubscribe();
    await seenByAlice.until((all) => !idsOf(all).includes(bob.user.uid), WAIT_MS, 'bob gone');
    seenByAlice.unsubscribe();
  });

  it('drops a member at once when their socket closes, and keeps one with another tab open', async () => {
    const seenByAlice = new LiveRecorder<ProjectViewer>(alice.client, projectViewersQuery(projectId));
    const otherTab = newClient(server.url);
    await otherTab.auth.logIn({ email: bob.email, password: bob.password });
    const firstTab = new LiveRecorder<ProjectViewer>(bob.client, projectViewersQuery(projectId));
    const secondTab = new LiveRecorder<ProjectViewer>(otherTab, projectViewersQuery(projectId));
    await Promise.all([firstTab.until(() => true), secondTab.until(() => true)]);
    await seenByAlice.until((all) => idsOf(all).includes(bob.user.uid), WAIT_MS, 'bob looking');
    const before = seenByAlice.history.length;
    otherTab.close();
    // A marker after the close: once alice sees the marker arrive, the close's change was handled before it.
    const marker = await signUpClient(server.url, 'marker');
    const markerLooking = new LiveRecorder<ProjectViewer>(marker.client, projectViewersQuery(projectId));
    await seenByAlice.until((all) => idsOf(all).includes(marker.user.uid), WAIT_MS, 'the marker');
    expect(seenByAlice.history.slice(before).every((docs) => idsOf(docs).includes(bob.user.uid))).toBe(true);
    markerLooking.unsubscribe();
    marker.client.close();
    bob.client.close();
    await seenByAlice.until((all) => !idsOf(all).includes(bob.user.uid), WAIT_MS, 'bob gone');
  });

  it('follows a rename of a member who is looking', async () => {
    const carol = await signUpClient(server.url, 'carol');
    const seenByAlice = new LiveRecorder<ProjectViewer>(alice.client, projectViewersQuery(projectId));
    const carolLooking = new LiveRecorder<ProjectViewer>(carol.client, projectViewersQuery(projectId));
    await carolLooking.until(() => true);
    await seenByAlice.until((all) => idsOf(all).includes(carol.user.uid), WAIT_MS, 'carol looking');
    await carol.client.account.updateProfile({ displayName: 'Caroline' });
    await seenByAlice.until(
      (all) => all.some((viewer) => viewer.id === carol.user.uid && viewer.displayName === 'Caroline'),
      WAIT_MS,
      'the new name',
    );
    carol.client.close();
  });

  it('refuses a viewers query that does not name one project', async () => {
    const bad = new LiveRecorder<ProjectViewer>(alice.client, {
      kind: 'query',
      collection: 'project_viewers',
    });
    await expect.poll(() => bad.error?.message ?? null).not.toBeNull();
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { projectViewersQuery, type ProjectViewer } from '../../common';
import { useTestTeam } from '../../../test/support/test-team';
import { createProjectAs, LiveRecorder, newClient, signUpClient } from '../../../test/support/clients';
import { WAIT_MS } from '../../../test/support/poll';

/**
 * Who is looking (docs/decisions/027-mentions-and-who-is-looking.md): subscribing is looking. The grace
 * period is long, so a departure seen within the waits below comes from the socket or the unsubscribe,
 * never from the freshness sweep (the two-instance test covers that).
 */
const team = useTestTeam({ alice: 'alice', bob: 'bob' }, { configOverrides: { presenceGraceMs: 60_000 } });
let projectId: string;

const idsOf = (docs: ProjectViewer[]) => docs.map((viewer) => viewer.id);

beforeAll(async () => {
  const project = await createProjectAs(team.alice, { name: 'Looked at', details: 'who has it open' });
  projectId = project.id;
});

describe('who is looking at a project', () => {
  it('shows a member while they follow the project, and not after they unsubscribe', async () => {
    const seenByAlice = new LiveRecorder<ProjectViewer>(team.alice.client, projectViewersQuery(projectId));
    await seenByAlice.until((docs) => idsOf(docs).includes(team.alice.user.uid), WAIT_MS, 'alice herself');
    const bobLooking = new LiveRecorder<ProjectViewer>(team.bob.client, projectViewersQuery(projectId));
    const docs = await seenByAlice.until(
      (all) => idsOf(all).includes(team.bob.user.uid),
      WAIT_MS,
      'bob looking',
    );
    expect(docs.find((viewer) => viewer.id === team.bob.user.uid)).toMatchObject({
      displayName: 'bob',
      projectId,
    });
    bobLooking.unsubscribe();
    await seenByAlice.until((all) => !idsOf(all).includes(team.bob.user.uid), WAIT_MS, 'bob gone');
    seenByAlice.unsubscribe();
  });

  it('drops a member at once when their socket closes, and keeps one with another tab open', async () => {
    const seenByAlice = new LiveRecorder<ProjectViewer>(team.alice.client, projectViewersQuery(projectId));
    const otherTab = newClient(team.server.url);
    await otherTab.auth.logIn({ email: team.bob.email, password: team.bob.password });
    const firstTab = new LiveRecorder<ProjectViewer>(team.bob.client, projectViewersQuery(projectId));
    const secondTab = new LiveRecorder<ProjectViewer>(otherTab, projectViewersQuery(projectId));
    await Promise.all([firstTab.until(() => true), secondTab.until(() => true)]);
    await seenByAlice.until((all) => idsOf(all).includes(team.bob.user.uid), WAIT_MS, 'bob looking');
    const before = seenByAlice.history.length;
    otherTab.close();
    // A marker after the close: once alice sees the marker arrive, the close's change was handled before it.
    const marker = await signUpClient(team.server.url, 'marker');
    const markerLooking = new LiveRecorder<ProjectViewer>(marker.client, projectViewersQuery(projectId));
    await seenByAlice.until((all) => idsOf(all).includes(marker.user.uid), WAIT_MS, 'the marker');
    expect(seenByAlice.history.slice(before).every((docs) => idsOf(docs).includes(team.bob.user.uid))).toBe(
      true,
    );
    markerLooking.unsubscribe();
    marker.client.close();
    team.bob.client.close();
    await seenByAlice.until((all) => !idsOf(all).includes(team.bob.user.uid), WAIT_MS, 'bob gone');
  });

  it('follows a rename of a member who is looking', async () => {
    const carol = await signUpClient(team.server.url, 'carol');
    const seenByAlice = new LiveRecorder<ProjectViewer>(team.alice.client, projectViewersQuery(projectId));
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
    const bad = new LiveRecorder<ProjectViewer>(team.alice.client, {
      kind: 'query',
      collection: 'project_viewers',
    });
    await expect.poll(() => bad.error?.message ?? null).not.toBeNull();
  });
});

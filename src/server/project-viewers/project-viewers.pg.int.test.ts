import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectViewersQuery, type ProjectViewer } from '../../common';
import {
  createTestDatabaseUrl,
  dropTestDatabase,
  startTestServer,
  type TestServer,
} from '../../../test/support/test-server';
import { startServerProcess, type ChildServer } from '../../../test/support/server-process';
import {
  createProjectAs,
  LiveRecorder,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';

/**
 * Who is looking across instances: instance A is a real server process (so it can be killed with no
 * shutdown code), B runs in this process; both share one PostgreSQL database.
 */
const GRACE_MS = 2000;
let databaseUrl: string;
let dataDir: string;
let instanceA: ChildServer;
let instanceB: TestServer;
const clients: SignedInClient[] = [];
const idsOf = (docs: ProjectViewer[]) => docs.map((viewer) => viewer.id);

beforeAll(async () => {
  databaseUrl = await createTestDatabaseUrl();
  instanceB = await startTestServer({ databaseUrl, configOverrides: { presenceGraceMs: GRACE_MS } });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-viewers-'));
  instanceA = await startServerProcess({
    dataDir,
    databaseUrl,
    env: { PRESENCE_GRACE_MS: String(GRACE_MS) },
  });
}, 120_000);
afterAll(async () => {
  for (const { client } of clients) client.close();
  await instanceA.stop();
  await instanceB.stop();
  await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('who is looking, on two instances', () => {
  it('shows a viewer on A to a member on B, keeps them while A refreshes, and drops them when A dies', async () => {
    const watcher = await signUpClient(instanceB.url, 'watcher');
    const closer = await signUpClient(instanceA.url, 'closer');
    const survivor = await signUpClient(instanceA.url, 'survivor');
    clients.push(watcher, closer, survivor);
    const project = await createProjectAs(watcher, {
      name: 'Watched from afar',
      details: 'open on the other instance',
    });
    const seenOnB = new LiveRecorder<ProjectViewer>(watcher.client, projectViewersQuery(project.id));
    new LiveRecorder<ProjectViewer>(closer.client, projectViewersQuery(project.id));
    new LiveRecorder<ProjectViewer>(survivor.client, projectViewersQuery(project.id));
    await seenOnB.until(
      (docs) => idsOf(docs).includes(closer.user.uid) && idsOf(docs).includes(survivor.user.uid),
      WAIT_MS,
      'both viewers on A, seen from B',
    );

    // A socket closed on A: gone from B at once (its row is deleted and the change crosses instances).
    closer.client.close();
    await seenOnB.until((docs) => !idsOf(docs).includes(closer.user.uid), WAIT_MS, 'the closed tab gone');

    // Past a freshness window A keeps refreshing its row: the survivor stays. The window is told by a sweep,
    // not a clock: a marker row written now and never refreshed (its instance is gone) is dropped by the
    // first sweep after it went stale, with any row of A's not refreshed since before it was written.
    const sweepsWatched = seenOnB.history.length;
    const database = await openServerDatabase(instanceB);
    try {
      const marker = { instance_id: 'an instance that is gone', viewing_id: 'marker' };
      await database.db
        .insertInto('project_viewers')
        .values({
          ...marker,
          project_id: project.id,
          user_id: closer.user.uid,
          last_seen_at: new Date().toISOString(),
        })
        .execute();
      const markerRows = async () =>
        (
          await database.db
            .selectFrom('project_viewers')
            .select('viewing_id')
            .where('instance_id', '=', marker.instance_id)
            .execute()
        ).length;
      await pollUntil(
        async () => (await markerRows()) === 0,
        WAIT_MS,
        () => 'no sweep dropped the marker',
      );
    } finally {
      await database.close();
    }
    // A newcomer's look makes B read the viewers again, after that sweep.
    const newcomer = await signUpClient(instanceB.url, 'newcomer');
    clients.push(newcomer);
    new LiveRecorder<ProjectViewer>(newcomer.client, projectViewersQuery(project.id));
    const afterSweep = await seenOnB.until(
      (docs) => idsOf(docs).includes(newcomer.user.uid),
      WAIT_MS,
      'the newcomer, seen from B',
    );
    expect(idsOf(afterSweep)).toContain(survivor.user.uid);
    expect(
      seenOnB.history.slice(sweepsWatched).every((docs) => idsOf(docs).includes(survivor.user.uid)),
    ).toBe(true);

    // A dies without a word: B's sweep drops its stale rows within the freshness window and a sweep period.
    await instanceA.kill();
    await seenOnB.until(
      (docs) => !idsOf(docs).includes(survivor.user.uid),
      WAIT_MS,
      'the dead instance’s viewer gone',
    );
  });
});

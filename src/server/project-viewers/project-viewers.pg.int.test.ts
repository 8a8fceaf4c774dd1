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
import { LiveRecorder, signUpClient, tomorrow, type SignedInClient } from '../../../test/support/clients';

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
    const project = await watcher.client.projects.create({
      name: 'Watched from afar',
      details: 'open on the other instance',
      dueDate: tomorrow(),
      category: 'design',
      assignedUserIds: [watcher.user.uid],
    });
    const seenOnB = new LiveRecorder<ProjectViewer>(watcher.client, projectViewersQuery(project.id));
    new LiveRecorder<ProjectViewer>(closer.client, projectViewersQuery(project.id));
    new LiveRecorder<ProjectViewer>(survivor.client, projectViewersQuery(project.id));
    await seenOnB.until(
      (docs) => idsOf(docs).includes(closer.user.uid) && idsOf(docs).includes(survivor.user.uid),
      10_000,
      'both viewers on A, seen from B',
    );

    // A socket closed on A: gone from B at once (its row is deleted and the change crosses instances).
    closer.client.close();
    await seenOnB.until((docs) => !idsOf(docs).includes(closer.user.uid), 10_000, 'the closed tab gone');

    // Past several freshness windows A keeps refreshing its row: the survivor stays.
    const sweepsWatched = seenOnB.history.length;
    const until = Date.now() + GRACE_MS * 2;
    await expect.poll(() => Date.now() >= until, { timeout: GRACE_MS * 4, interval: 200 }).toBe(true);
    expect(
      seenOnB.history.slice(sweepsWatched).every((docs) => idsOf(docs).includes(survivor.user.uid)),
    ).toBe(true);

    // A dies without a word: B's sweep drops its stale rows within the freshness window and a sweep period.
    await instanceA.kill();
    await seenOnB.until(
      (docs) => !idsOf(docs).includes(survivor.user.uid),
      GRACE_MS * 5,
      'the dead instance’s viewer gone',
    );
  });
});

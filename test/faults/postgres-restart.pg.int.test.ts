import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQuery, type Project } from '../../src/common';
import { postSignup, sessionCookieOf, tryLiveSocket } from '../support/fixtures';
import { LiveRecorder, signUpClient, tomorrow, type SignedInClient } from '../support/clients';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { startServerProcess, type ChildServer } from '../support/server-process';
import { pollUntil, WAIT_MS } from '../support/poll';

/**
 * A PostgreSQL restart under two running instances. The cluster is this file's own: the shared one of
 * the integration run must not be restarted under other test files.
 */
const METRICS_TOKEN = 'restart-test-metrics-token-0123456789';

/** `dojo_database_errors_total` of one instance (docs/decisions/024-operations.md). */
async function databaseErrors(server: ChildServer): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const match = /^dojo_database_errors_total (\S+)$/m.exec(await response.text());
  return Number(match?.[1] ?? Number.NaN);
}

describe('a PostgreSQL restart under two instances', () => {
  let cluster: PostgresCluster;
  let databaseUrl: string;
  const dataDirs: string[] = [];
  const servers: ChildServer[] = [];
  const clients: SignedInClient[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE dojo_restart');
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = '/dojo_restart';
    databaseUrl = url.toString();
    for (let index = 0; index < 2; index += 1) {
      dataDirs.push(await mkdtemp(path.join(os.tmpdir(), 'dojo-pg-restart-')));
    }
    // One after the other: the first runs the migrations.
    for (const dataDir of dataDirs) {
      servers.push(await startServerProcess({ dataDir, databaseUrl, env: { METRICS_TOKEN } }));
    }
  }, 120_000);

  afterAll(async () => {
    for (const { client } of clients) client.close();
    await Promise.all(servers.map((server) => server.stop()));
    await cluster?.stop();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }, 60_000);

  it('keeps both instances up (503 while it is away), re-LISTENs and misses no change', async () => {
    const [first, second] = servers as [ChildServer, ChildServer];
    const alice = await signUpClient(first.url, 'alice');
    const bob = await signUpClient(second.url, 'bob');
    clients.push(alice, bob);
    const onFirst = new LiveRecorder<Project>(alice.client, dashboardQuery('all', alice.user.uid, 50));
    const onSecond = new LiveRecorder<Project>(bob.client, dashboardQuery('all', bob.user.uid, 50));
    await Promise.all([onFirst.until(() => true), onSecond.until(() => true)]);
    const input = {
      details: 'made around a database restart',
      dueDate: tomorrow(),
      category: 'design' as const,
      assignedUserIds: [alice.user.uid, bob.user.uid],
    };
    const before = await alice.client.projects.create({ ...input, name: 'Before the restart' });
    await onSecond.until((docs) => docs.some((p) => p.id === before.id), WAIT_MS, 'the first project');
    const cookie = sessionCookieOf(await postSignup(first.url));
    const errorsBefore = await Promise.all(servers.map(databaseErrors));

    await cluster.restart(async () => {
      for (const [index, server] of servers.entries()) {
        const ready = await fetch(`${server.url}/api/ready`);
        expect(ready.status).toBe(503);
        const readyBody = (await ready.json()) as { error: { fields: Record<string, string> } };
        expect(Object.keys(readyBody.error.fields)).toContain('database');
        expect(readyBody.error.fields.storage).toBeUndefined();
        const response = await fetch(`${server.url}/api/health`);
        expect(response.status, server.output().slice(-2000)).toBe(503);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('unavailable');
        expect(body.error.message.length).toBeGreaterThan(0);
        // The live socket's upgrade looks the session up: refused with 503 too, so the client retries.
        expect(await tryLiveSocket(server.url, { cookie })).toBe(503);
        expect(server.running()).toBe(true);
        expect(await databaseErrors(server)).toBeGreaterThan(errorsBefore[index] ?? Number.NaN);
      }
    });

    // The bound: the API answers again within 15 s of the database being back.
    for (const server of servers) {
      await pollUntil(
        async () => (await fetch(`${server.url}/api/health`)).status === 200,
        15_000,
        () => `the API on ${server.url} did not answer again within 15 s:\n${server.output().slice(-3000)}`,
      );
    }
    expect(servers.every((server) => server.running())).toBe(true);

    // Changes made after the restart, through either instance, reach the subscribers of both.
    const afterOnFirst = await alice.client.projects.create({ ...input, name: 'After, on one' });
    const afterOnSecond = await bob.client.projects.create({ ...input, name: 'After, on two' });
    for (const recorder of [onFirst, onSecond]) {
      await recorder.until(
        (docs) => [afterOnFirst.id, afterOnSecond.id].every((id) => docs.some((p) => p.id === id)),
        WAIT_MS,
        'both projects made after the restart',
      );
    }

    // An instance killed outright leaves the other serving.
    const killed = await first.kill();
    expect(killed.signal).toBe('SIGKILL');
    const lastOne = await bob.client.projects.create({ ...input, name: 'After a kill -9' });
    await onSecond.until(
      (docs) => docs.some((p) => p.id === lastOne.id),
      WAIT_MS,
      'the project after the kill',
    );
    expect((await fetch(`${second.url}/api/health`)).status).toBe(200);
    expect(second.running()).toBe(true);
  }, 110_000);
});

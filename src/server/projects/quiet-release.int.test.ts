import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveTarget, Project, ProjectPage } from '../../common';
import {
  createProjectAs,
  LiveRecorder,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * After a quiet while the server drops its cached list bodies (and SQLite's page cache): a list read then
 * is built anew. A rename written straight into the database, behind the server's back (no change event),
 * shows whether a read came from the cached body: one server that never gets quiet keeps answering the old
 * name, one with a short quiet period answers the new one once it was left alone.
 */
const QUIET_MS = 1500;
/** Longer than any test: this server never releases while the test runs. */
const NEVER_QUIET_MS = 3_600_000;
const PROJECT_LIST: LiveTarget = {
  kind: 'query',
  collection: 'projects',
  orderBy: { field: 'createdAt', direction: 'desc' },
  limit: 50,
};

interface Started {
  server: TestServer;
  alice: SignedInClient;
}
let started: Started[] = [];
/** Servers started without a user. */
let unused: TestServer[] = [];

const METRICS_TOKEN = 'quiet-release-metrics-token-0123456789';

async function startWith(quietReleaseMs: number): Promise<Started> {
  const server = await startTestServer({ configOverrides: { quietReleaseMs, metricsToken: METRICS_TOKEN } });
  const entry = { server, alice: await signUpClient(server.url, 'Alice') };
  started.push(entry);
  return entry;
}

async function listedNames({ server, alice }: Started): Promise<string[]> {
  const response = await fetch(`${server.url}/api/projects?limit=50`, {
    headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as ProjectPage).projects.map((project) => project.name);
}

/** Renames a project in the database itself, so the server hears nothing of it. */
async function renameBehindTheServersBack(server: TestServer, id: string, name: string): Promise<void> {
  if (server.databaseUrl) {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query('UPDATE projects SET name = $1 WHERE id = $2', [name, id]);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = new Sqlite(path.join(server.dataDir, 'dojo.sqlite'));
  try {
    sqlite.pragma('busy_timeout = 5000');
    sqlite.prepare('UPDATE projects SET name = ? WHERE id = ?').run(name, id);
  } finally {
    sqlite.close();
  }
}

/**
 * A project listed once (so its list body is cached), then renamed behind the server's back. On PostgreSQL
 * the server hears of its own writes again by NOTIFY, a little later, and each one drops the cached lists:
 * the list is read only once the live list has shown the project, so no earlier change is still on its way.
 */
async function cachedThenRenamed(entry: Started): Promise<void> {
  const live = new LiveRecorder<Project>(entry.alice.client, PROJECT_LIST);
  await live.until((docs) => docs.length === 0, WAIT_MS, 'the empty first snapshot');
  const project = await createProjectAs(entry.alice, {
    name: 'Before',
    details: 'Renamed in the database while the server looks away.',
    dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  });
  await live.until((docs) => docs.some((doc) => doc.id === project.id), WAIT_MS, 'the project, live');
  live.unsubscribe();
  expect(await listedNames(entry)).toEqual(['Before']);
  await renameBehindTheServersBack(entry.server, project.id, 'After');
}

/**
 * The names listed once the server was left alone for twice its quiet period before each look. A look is
 * a request, so it starts the next quiet period, and a loaded machine only delays the release to a later look.
 */
async function namesOnceLeftAlone(entry: Started, quietMs: number): Promise<string[]> {
  let names: string[] = [];
  for (let look = 0; look < 10 && names[0] !== 'After'; look += 1) {
    await delay(2 * quietMs);
    names = await listedNames(entry);
  }
  return names;
}

/** `dojo_quiet_releases_total`; a scrape is a monitor request, so it does not interrupt a quiet period. */
async function releasesSoFar(server: TestServer): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  const line = /^dojo_quiet_releases_total (\d+)$/m.exec(await response.text());
  return Number(line?.[1] ?? Number.NaN);
}

/** Opens a dashboard's live socket (the upgrade) and closes it once it is open. */
async function openAndCloseLiveSocket({ server, alice }: Started): Promise<void> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`, {
    headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.close();
}

afterAll(async () => {
  for (const { server, alice } of started) {
    alice.client.close();
    await server.stop();
  }
  started = [];
  for (const server of unused) await server.stop();
  unused = [];
});

describe('after a quiet while', () => {
  it('a server that is not left alone keeps answering from its cached body', async () => {
    const entry = await startWith(NEVER_QUIET_MS);
    await cachedThenRenamed(entry);
    expect(await listedNames(entry)).toEqual(['Before']);
  }, 60_000);

  it('drops the cached list bodies: the next read is built anew', async () => {
    const entry = await startWith(QUIET_MS);
    await cachedThenRenamed(entry);
    expect(await namesOnceLeftAlone(entry, QUIET_MS)).toEqual(['After']);
  }, 60_000);

  it('counts the idle stretch after start: a server nobody uses releases what start-up left', async () => {
    // No sign-up, no request at all: only the scrapes, which are monitor requests.
    const server = await startTestServer({
      configOverrides: { quietReleaseMs: QUIET_MS, metricsToken: METRICS_TOKEN },
    });
    unused.push(server);
    let releases = 0;
    await pollUntil(
      async () => (releases = await releasesSoFar(server)) >= 1,
      30_000,
      () => `dojo_quiet_releases_total stayed at ${releases}`,
    );
  }, 60_000);

  it('counts a live socket opening as activity: tabs opening keep the server from releasing', async () => {
    // Ten times the pause between two socket openings here, so a loaded machine's slow upgrade still fits.
    const quietMs = 3000;
    const entry = await startWith(quietMs);
    await cachedThenRenamed(entry);
    // Nothing but upgrades for twice the quiet period since the last request. They are paced, not back to
    // back: a busy loop of upgrades took a core from the test files running beside this one, and a longer
    // pause could only make the test fail (a gap past the quiet period), never pass wrongly.
    const until = performance.now() + 2 * quietMs;
    while (performance.now() < until) {
      await openAndCloseLiveSocket(entry);
      await delay(quietMs / 10);
    }
    expect(await listedNames(entry)).toEqual(['Before']);
    // The same server left alone (no request, no socket) then releases.
    expect(await namesOnceLeftAlone(entry, quietMs)).toEqual(['After']);
  }, 120_000);
});

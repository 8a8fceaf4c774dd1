import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectPage } from '../../common';
import { signUpClient, type SignedInClient } from '../../../test/support/clients';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * After a quiet while the server drops its cached list bodies (and SQLite's page cache): a list read then
 * is built anew. A rename written straight into the database, behind the server's back (no change event),
 * shows exactly when the cached body is gone: still the old name while requests keep coming, the new one
 * after the server was left alone for the quiet period.
 */
const QUIET_MS = 1500;

let server: TestServer;
let alice: SignedInClient;

async function listedNames(): Promise<string[]> {
  const response = await fetch(`${server.url}/api/projects?limit=50`, {
    headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as ProjectPage).projects.map((project) => project.name);
}

/** Renames a project in the database itself, so the server hears nothing of it. */
async function renameBehindTheServersBack(id: string, name: string): Promise<void> {
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

beforeAll(async () => {
  server = await startTestServer({ configOverrides: { quietReleaseMs: QUIET_MS } });
  alice = await signUpClient(server.url, 'Alice');
}, 60_000);

afterAll(async () => {
  alice?.client.close();
  await server?.stop();
});

describe('after a quiet while', () => {
  it('drops the cached list bodies: the next read is built anew', async () => {
    const project = await alice.client.projects.create({
      name: 'Before',
      details: 'Renamed in the database while the server looks away.',
      dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      category: 'design',
      assignedUserIds: [alice.user.uid],
    });
    expect(await listedNames()).toEqual(['Before']);
    await renameBehindTheServersBack(project.id, 'After');
    // Requests keep coming (well within the quiet period): the cached body still answers.
    expect(await listedNames()).toEqual(['Before']);
    // Left alone for twice the quiet period before each look; a look is a request, so it starts the next
    // quiet period, and a loaded machine only delays the release to a later look.
    let names: string[] = [];
    for (let look = 0; look < 10 && names[0] !== 'After'; look += 1) {
      await delay(2 * QUIET_MS);
      names = await listedNames();
    }
    expect(names).toEqual(['After']);
  }, 60_000);
});

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { UpgradeExpectation } from '../../../test/support/upgrade-fixture';
import { canonicalRowHashes } from '../../../test/support/upgrade-fixture';
import { sessionCookieOf, postJson } from '../../../test/support/fixtures';
import { startServerProcess, type ChildServer } from '../../../test/support/server-process';
import {
  createTestDatabaseUrl,
  dropTestDatabase,
  testDatabaseEngine,
} from '../../../test/support/test-server';
import { readVerifiedArchive } from '../backup/archive';
import { exportInstall } from '../backup/backup-service';
import { loadConfig } from '../config/config';

/**
 * Today's code starts on the data set the v0.1.0 release made (scripts/make-upgrade-fixture.ts) on this
 * project's engine: the pending migrations run, every row and stored file recorded when the fixture was
 * made is still there, byte for byte, and the app works on it.
 */
const FIXTURE = path.resolve('test/fixtures/upgrade/v0.1.0');
const expected = JSON.parse(
  fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8'),
) as UpgradeExpectation;

let dataDir: string;
let databaseUrl: string | undefined;
let server: ChildServer | undefined;

async function restorePostgresDump(url: string): Promise<void> {
  // A plain pg_dump; its psql meta-commands (\restrict) are not SQL.
  const dump = fs
    .readFileSync(path.join(FIXTURE, 'postgres', 'dump.sql'), 'utf8')
    .split('\n')
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(dump);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-upgrade-'));
  if (testDatabaseEngine() === 'postgres') {
    databaseUrl = await createTestDatabaseUrl();
    await restorePostgresDump(databaseUrl);
    fs.cpSync(path.join(FIXTURE, 'postgres', 'storage'), path.join(dataDir, 'storage'), { recursive: true });
  } else {
    fs.cpSync(path.join(FIXTURE, 'sqlite'), dataDir, { recursive: true });
  }
  server = await startServerProcess({ dataDir, databaseUrl });
});

afterAll(async () => {
  await server?.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
});

it('keeps every row and stored file of the v0.1.0 fixture', async () => {
  const archive = path.join(dataDir, 'after-upgrade.tar.gz');
  const config = loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const manifest = await exportInstall(config, archive);
  const current = await readVerifiedArchive(archive, await mkdtemp(path.join(dataDir, 'check-')));
  for (const [table, { columns, rowSha256 }] of Object.entries(expected.tables)) {
    const rows = current.tables[table as keyof typeof current.tables];
    const hashes = new Set(canonicalRowHashes(rows, columns));
    const missing = rowSha256.filter((hash) => !hashes.has(hash));
    expect({ table, missing }).toEqual({ table, missing: [] });
  }
  for (const [hash, size] of Object.entries(expected.files)) {
    expect(manifest.files[hash]).toEqual({ size });
  }
});

it('works on the upgraded data: login, list, download, create', async () => {
  const url = server?.url ?? '';
  const login = await postJson(url, '/api/auth/login', {
    email: expected.email,
    password: expected.password,
  });
  expect(login.status).toBe(200);
  const cookie = sessionCookieOf(login);
  const { user } = (await login.json()) as { user: { uid: string; photoURL: string } };

  const list = await fetch(`${url}/api/projects?limit=100`, { headers: { cookie } });
  const { projects } = (await list.json()) as { projects: { name: string }[] };
  expect(projects.map((project) => project.name).sort()).toEqual([
    'Fixture project 0 – café',
    'Fixture project 1 – café',
    'Fixture project 2 – café',
  ]);

  const download = await fetch(`${url}${user.photoURL}`);
  expect(download.status).toBe(200);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(expected.files[createHash('sha256').update(bytes).digest('hex')]).toBe(bytes.length);

  const created = await postJson(
    url,
    '/api/projects',
    {
      name: 'After the upgrade',
      details: 'New',
      dueDate: '2031-01-01',
      category: 'sales',
      assignedUserIds: [user.uid],
    },
    { cookie },
  );
  expect(created.status).toBe(201);
});

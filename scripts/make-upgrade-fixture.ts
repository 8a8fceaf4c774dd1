/**
 * Builds the upgrade fixture of this release through the real API (`tsx scripts/make-upgrade-fixture.ts
 * v0.1.0`): a SQLite install (database file + stored files) and the same data on PostgreSQL (a plain SQL
 * dump + stored files), with `expected.json`: every row's and file's sha256, for
 * src/server/db/upgrade.int.test.ts to check after today's code has started on it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readVerifiedArchive, sha256 } from '../src/server/backup/archive';
import { EXPORTED_TABLES } from '../src/server/backup/backup-repository';
import { exportInstall, importInstall } from '../src/server/backup/backup-service';
import { loadConfig } from '../src/server/config/config';
import { makePng, postSignup, sessionCookieOf, uniqueEmail } from '../test/support/fixtures';
import { findPostgresBinDir, startPostgresCluster } from '../test/support/postgres-cluster';
import { startServerProcess } from '../test/support/server-process';
import { canonicalRowHashes, type UpgradeExpectation } from '../test/support/upgrade-fixture';

const version = process.argv[2] ?? '';
if (!version) throw new Error('usage: tsx scripts/make-upgrade-fixture.ts vX.Y.Z');
const out = path.resolve('test/fixtures/upgrade', version);
const PASSWORD = 'upgrade fixture password';

async function buildThroughApi(url: string): Promise<{ email: string }> {
  const email = uniqueEmail('admin');
  const signup = await postSignup(url, { email, password: PASSWORD, displayName: 'Fixture Admin' });
  const cookie = sessionCookieOf(signup);
  const { user } = (await signup.json()) as { user: { uid: string } };
  const member = await postSignup(url, { password: PASSWORD, displayName: 'Fixture Member' });
  const { user: other } = (await member.json()) as { user: { uid: string } };
  const send = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as Record<string, { id: string }>);
  };
  const projectIds: string[] = [];
  for (const [index, category] of ['development', 'design', 'sales', 'marketing'].entries()) {
    const created = await send('POST', '/api/projects', {
      name: `Fixture project ${index} – café`,
      details: `Details of project ${index}`,
      dueDate: '2030-01-0' + String(index + 1),
      category,
      assignedUserIds: index % 2 === 0 ? [user.uid, other.uid] : [user.uid],
    });
    const id = created?.project?.id ?? '';
    projectIds.push(id);
    await send('POST', `/api/projects/${id}/comments`, { content: `First comment on ${index}` });
    await send('POST', `/api/projects/${id}/comments`, { content: `Second comment, @mention-free ${index}` });
  }
  await send('DELETE', `/api/projects/${projectIds[3] ?? ''}`);
  await send('POST', '/api/admin/invitations', { maxUses: 2, expiresInDays: 30 });
  const form = new FormData();
  form.set('thumbnail', new Blob([new Uint8Array(makePng(400))], { type: 'image/png' }), 'new avatar.png');
  const profile = await fetch(`${url}/api/account/profile`, {
    method: 'PATCH',
    headers: { cookie },
    body: form,
  });
  if (!profile.ok) throw new Error(`profile: ${profile.status}`);
  return { email };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'dojo-fixture-'));
  const cluster = await startPostgresCluster();
  try {
    const sqliteDir = path.join(work, 'sqlite');
    const server = await startServerProcess({ dataDir: sqliteDir });
    let email: string;
    try {
      ({ email } = await buildThroughApi(server.url));
    } finally {
      await server.stop();
    }
    const archive = path.join(work, 'fixture.tar.gz');
    const manifest = await exportInstall(loadConfig({ DATA_DIR: sqliteDir }), archive);
    const verified = await readVerifiedArchive(archive, await mkdtemp(path.join(work, 'check-')));

    const databaseUrl = new URL(cluster.url);
    databaseUrl.pathname = '/dojo_fixture';
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database dojo_fixture');
    await admin.end();
    const postgresDir = path.join(work, 'postgres');
    await importInstall(loadConfig({ DATA_DIR: postgresDir, DATABASE_URL: databaseUrl.toString() }), archive);
    const dump = execFileSync(
      path.join(findPostgresBinDir(), 'pg_dump'),
      ['--no-owner', '--no-privileges', '--column-inserts', '--dbname', databaseUrl.toString()],
      { maxBuffer: 64 * 1024 * 1024 },
    ).toString();

    await rm(out, { recursive: true, force: true });
    fs.mkdirSync(path.join(out, 'postgres'), { recursive: true });
    fs.cpSync(path.join(sqliteDir, 'dojo.sqlite'), path.join(out, 'sqlite', 'dojo.sqlite'));
    fs.cpSync(path.join(sqliteDir, 'storage', 'blobs'), path.join(out, 'sqlite', 'storage', 'blobs'), {
      recursive: true,
    });
    fs.cpSync(path.join(postgresDir, 'storage', 'blobs'), path.join(out, 'postgres', 'storage', 'blobs'), {
      recursive: true,
    });
    fs.writeFileSync(path.join(out, 'postgres', 'dump.sql'), dump);
    const expected: UpgradeExpectation = {
      version,
      schemaVersion: manifest.schemaVersion,
      email,
      password: PASSWORD,
      tables: Object.fromEntries(
        EXPORTED_TABLES.map((table) => [
          table,
          {
            columns: Object.keys(verified.tables[table][0] ?? {}).sort(),
            rowSha256: canonicalRowHashes(verified.tables[table], undefined),
          },
        ]),
      ),
      files: Object.fromEntries(Object.entries(manifest.files).map(([hash, { size }]) => [hash, size])),
    };
    fs.writeFileSync(path.join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
    console.log(`Fixture ${version} written to ${out} (${sha256(Buffer.from(dump)).slice(0, 12)}…)`);
  } finally {
    await cluster.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

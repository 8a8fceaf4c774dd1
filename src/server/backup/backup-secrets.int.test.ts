import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBackupInstall, type BackupInstall } from '../../../test/support/backup-install';
import { newClient, tomorrow } from '../../../test/support/clients';
import { postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { loadConfig } from '../config/config';
import { readVerifiedArchive } from './archive';
import { exportInstall, importInstall } from './backup-service';

/**
 * The archive is a secret (decision 044): it is written with mode 0600 whatever was there before, and
 * `npm run export -- --without-sessions` makes one whose restore signs everybody out, data intact.
 */
let server: TestServer;
let workDir: string;
const password = 'correct horse battery';
const email = uniqueEmail('keeper');
let cookie: string;
let idToken: string;
let projectId: string;

beforeAll(async () => {
  server = await startTestServer();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-backup-secrets-'));
  const signup = await postSignup(server.url, { email, password, displayName: 'Keeper' });
  expect(signup.status).toBe(201);
  cookie = sessionCookieOf(signup);
  const signedUp = (await signup.json()) as { idToken: string; user: { uid: string } };
  idToken = signedUp.idToken;
  const created = await fetch(`${server.url}/api/projects`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Survives the restore',
      details: 'Data stays, sessions go',
      dueDate: tomorrow(),
      category: 'sales',
      assignedUserIds: [signedUp.user.uid],
    }),
  });
  expect(created.status, await created.clone().text()).toBe(201);
  projectId = ((await created.json()) as { project: { id: string } }).project.id;
});
afterAll(async () => {
  await server?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const sourceConfig = () =>
  loadConfig({
    DATA_DIR: server.dataDir,
    ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
  });

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

it('writes the archive with mode 0600, over an older archive and a leftover partial file of wider modes', async () => {
  const archive = path.join(workDir, 'dojo.tar.gz');
  fs.writeFileSync(archive, 'an older archive', { mode: 0o644 });
  fs.chmodSync(archive, 0o644);
  fs.writeFileSync(`${archive}.partial`, 'a crashed export', { mode: 0o666 });
  fs.chmodSync(`${archive}.partial`, 0o666);

  await exportInstall(sourceConfig(), archive);

  expect(modeOf(archive).toString(8)).toBe('600');
  expect(fs.existsSync(`${archive}.partial`)).toBe(false);
  const fresh = path.join(workDir, 'fresh.tar.gz');
  await exportInstall(sourceConfig(), fresh);
  expect(modeOf(fresh).toString(8)).toBe('600');
});

/** `npm run export` as an operator runs it: the CLI in a process of its own. */
async function runExportCli(out: string, ...flags: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/backup.ts', 'export', '--out', out, ...flags],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        DATA_DIR: server.dataDir,
        ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
      },
    },
  );
  return stdout;
}

it('restores an archive made --without-sessions with everybody signed out and every row in place', async () => {
  const archive = path.join(workDir, 'signed-out.tar.gz');
  expect(await runExportCli(archive, '--without-sessions')).toMatch(/restoring it signs everybody out/);
  expect(modeOf(archive).toString(8)).toBe('600');

  const verifyDir = await mkdtemp(path.join(workDir, 'verify-'));
  const { manifest, tables } = await readVerifiedArchive(archive, verifyDir);
  expect(manifest.withoutSessions).toBe(true);
  expect([tables.sessions, tables.password_resets, tables.live_presence]).toEqual([[], [], []]);
  expect(tables.settings.map((row) => row.key)).not.toContain('id_token_hmac_key');
  expect(tables.users.map((row) => row.email)).toContain(email);

  let target: BackupInstall | undefined;
  let restored: TestServer | undefined;
  try {
    target = await createBackupInstall();
    await importInstall(target.config, archive);
    restored = await startTestServer({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    // The cookie and the id token from before the export are worth nothing on the restored install.
    expect((await fetch(`${restored.url}/api/projects/${projectId}`, { headers: { cookie } })).status).toBe(
      401,
    );
    expect(
      (
        await fetch(`${restored.url}/api/projects/${projectId}`, {
          headers: { authorization: `Bearer ${idToken}` },
        })
      ).status,
    ).toBe(401);
    // The account and its data are there: a sign-in with the password sees the project.
    const client = newClient(restored.url);
    await client.auth.whenReady();
    await client.auth.logIn({ email, password });
    const project = await client.projects.get(projectId);
    expect(project.name).toBe('Survives the restore');
    client.close();
  } finally {
    await restored?.stop();
    await target?.remove();
  }
  // The source install is untouched: its own sessions still work.
  expect((await fetch(`${server.url}/api/projects/${projectId}`, { headers: { cookie } })).status).toBe(200);
});

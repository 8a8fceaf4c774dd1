import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attachFile } from '../../../test/support/attachments';
import { createBackupInstall, type BackupInstall } from '../../../test/support/backup-install';
import { createProjectAs, type SignedInClient, signUpClient, tomorrow } from '../../../test/support/clients';
import { makePng, postJson, postSignup, sessionCookieOf } from '../../../test/support/fixtures';
import { pollUntil } from '../../../test/support/poll';
import { startServerProcess, type ChildServer } from '../../../test/support/server-process';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  createTestBucket,
  s3StorageEnv,
  startSwiftS3,
  swiftS3Client,
  type SwiftS3,
} from '../../../test/support/swift-s3';
import { testDatabaseEngine } from '../../../test/support/test-server';
import { readVerifiedArchive } from './archive';
import { exportInstall } from './backup-service';

/** `npm run export` / `npm run import` as an operator runs them: the CLI in a process of its own. */
async function runBackupCli(install: BackupInstall, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/backup.ts', ...args],
    {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        DATA_DIR: install.dataDir,
        ...(install.databaseUrl ? { DATABASE_URL: install.databaseUrl } : {}),
        ...install.env,
      },
    },
  );
  return stdout;
}

/**
 * A running SQLite + disk install under continuous writes (projects with their assignees, comments,
 * avatar uploads that delete the previous avatar's blob) is exported, the archive imported into an empty
 * install on this project's engine (on PostgreSQL with its files in S3: a real Swift s3api started here),
 * and the import exported again: both manifests (row counts, sha256 of
 * every table and of every file) must be identical. Then a server on the imported install accepts the
 * session cookie and serves the download URL made before the move.
 */
let source: BackupInstall;
let target: BackupInstall;
let workDir: string;
let server: ChildServer | undefined;
let swift: SwiftS3 | undefined;

beforeAll(async () => {
  source = await createBackupInstall('sqlite');
  if (testDatabaseEngine() === 'postgres') {
    swift = await startSwiftS3();
    target = await createBackupInstall('postgres', s3StorageEnv(swift, await createTestBucket(swift)));
  } else {
    target = await createBackupInstall();
  }
  workDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-archive-'));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await source.remove();
  await target.remove();
  await swift?.stop();
  await rm(workDir, { recursive: true, force: true });
});

interface Written {
  projectId: string;
  assignees: string[];
  /** An attachment (an image: its thumbnail is a file too) and its bytes, on every third project. */
  attachment?: { id: string; bytes: Buffer };
}

async function writeUntil(writer: SignedInClient, others: string[], stop: () => boolean, done: Written[]) {
  for (let index = 0; !stop(); index += 1) {
    const assignees = [writer.user.uid, ...others.slice(0, index % (others.length + 1))];
    const project = await createProjectAs(writer, {
      name: `Load ${index}`,
      details: `Written while exporting ${index}`,
      assignedUserIds: assignees,
    });
    const entry: Written = { projectId: project.id, assignees };
    done.push(entry);
    await writer.client.projects.addComment(project.id, { content: `comment ${index}` });
    if (index % 3 === 1) {
      const bytes = makePng(300 + index);
      const file = new File([new Uint8Array(bytes)], `plan ${index}.png`);
      entry.attachment = { id: (await attachFile(writer, project.id, file)).id, bytes };
    }
    if (index % 3 === 0) {
      await writer.client.account.updateProfile({
        thumbnail: new Blob([new Uint8Array(makePng(200 + index))], { type: 'image/png' }),
        fileName: `face ${index}.png`,
      });
    }
  }
}

it('exports a running install under writes and imports it with every row and file identical', async () => {
  server = await startServerProcess({ dataDir: source.dataDir });
  const url = server.url;
  const signup = await postSignup(url, { password: 'correct horse battery' });
  expect(signup.status).toBe(201);
  const cookie = sessionCookieOf(signup);
  const { user } = (await signup.json()) as { user: { uid: string; photoURL: string } };
  const avatar = await fetch(`${url}${user.photoURL}`);
  expect(avatar.status).toBe(200);
  const avatarBytes = Buffer.from(await avatar.arrayBuffer());

  const writers = await Promise.all([signUpClient(url, 'Writer One'), signUpClient(url, 'Writer Two')]);
  const others = [user.uid];
  let stopping = false;
  const written: Written[][] = [[], []];
  const load = Promise.all(
    writers.map((writer, index) => writeUntil(writer, others, () => stopping, written[index] ?? [])),
  );
  await pollUntil(
    () => written.every((list) => list.length >= 5),
    60_000,
    () => 'the write load did not start',
  );

  const before = written.flat().map((entry) => entry.projectId);
  const archive = path.join(workDir, 'dojo.tar.gz');
  expect(await runBackupCli(source, 'export', '--out', archive)).toMatch(/^Exported \d+ rows and \d+ files/);
  // The load went on during the export (the export stopped no writes).
  const countAfterExport = written.flat().length;
  await pollUntil(
    () => written.flat().length >= countAfterExport + 4,
    60_000,
    () => 'writes stalled after the export',
  );
  stopping = true;
  await load;
  await server.stop();
  server = undefined;

  const archived = await readVerifiedArchive(archive, await mkdtemp(path.join(workDir, 'check-')));
  const exported = archived.manifest;
  const projectIds = new Set(archived.tables.projects.map((row) => String(row.id)));
  // Nothing committed before the export began is missing.
  for (const id of before) expect(projectIds.has(id)).toBe(true);
  // A project created during the export is in the archive with all its assignees or not at all.
  for (const entry of written.flat()) {
    const assignees = archived.tables.project_assignees
      .filter((row) => row.project_id === entry.projectId)
      .map((row) => String(row.user_id))
      .sort();
    expect(assignees).toEqual(projectIds.has(entry.projectId) ? [...entry.assignees].sort() : []);
  }
  // Writes both before and after the snapshot: the check above covered rows on either side of it.
  expect(written.flat().some((entry) => !projectIds.has(entry.projectId))).toBe(true);
  expect(exported.tables.projects.rows).toBe(projectIds.size);
  expect(Object.keys(exported.files).length).toBeGreaterThanOrEqual(3);

  expect(await runBackupCli(target, 'import', '--in', archive)).toMatch(/^Imported \d+ rows and \d+ files/);
  const reExported = await exportInstall(target.config, path.join(workDir, 'again.tar.gz'));
  expect(reExported.tables).toEqual(exported.tables);
  expect(reExported.files).toEqual(exported.files);
  if (swift) {
    // On PostgreSQL the target keeps its files in S3: the bytes re-exported above came from the bucket.
    const client = swiftS3Client(swift);
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: target.env.S3_BUCKET, Prefix: 'blobs/' }),
    );
    client.destroy();
    expect(listed.KeyCount).toBe(Object.keys(exported.files).length);
  }

  server = await startServerProcess({
    dataDir: target.dataDir,
    databaseUrl: target.databaseUrl,
    env: target.env,
  });
  const session = await fetch(`${server.url}/api/auth/session`, { headers: { cookie } });
  expect(((await session.json()) as { user: { uid: string } | null }).user?.uid).toBe(user.uid);
  const download = await fetch(`${server.url}${user.photoURL}`);
  expect(download.status).toBe(200);
  expect(Buffer.from(await download.arrayBuffer()).equals(avatarBytes)).toBe(true);
  // Attachments came along with their bytes and thumbnails (the manifests above compared their hashes).
  const attached = written.flat().filter((entry) => entry.attachment && projectIds.has(entry.projectId));
  expect(attached.length).toBeGreaterThan(0);
  for (const entry of attached.slice(0, 3)) {
    const content = await fetch(`${server.url}/api/attachments/${entry.attachment?.id}/content`, {
      headers: { cookie },
    });
    expect(Buffer.from(await content.arrayBuffer()).equals(entry.attachment?.bytes ?? Buffer.alloc(0))).toBe(
      true,
    );
    const thumbnail = await fetch(`${server.url}/api/attachments/${entry.attachment?.id}/thumbnail`, {
      headers: { cookie },
    });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
  }
  const projects = await fetch(`${server.url}/api/projects?limit=1000`, { headers: { cookie } });
  expect(((await projects.json()) as { projects: unknown[] }).projects.length).toBe(projectIds.size);
  // New rows get keys past the imported ones (PostgreSQL's identity sequences were moved on).
  const created = await postJson(
    server.url,
    '/api/projects',
    {
      name: 'After',
      details: 'the move',
      dueDate: tomorrow(),
      category: 'sales',
      assignedUserIds: [user.uid],
    },
    { cookie },
  );
  expect(created.status).toBe(201);
  const { project } = (await created.json()) as { project: { id: string } };
  const comment = await postJson(
    server.url,
    `/api/projects/${project.id}/comments`,
    { content: 'new' },
    { cookie },
  );
  expect(comment.status).toBe(201);
});

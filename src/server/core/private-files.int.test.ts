import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { makePng, postSignup } from '../../../test/support/fixtures';
import { startTestServer, testDatabaseEngine, type TestServer } from '../../../test/support/test-server';
import { signUpStorageUser, startSession, uploadMultipart } from '../storage/testing/storage-http';

let parent: string | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (parent) await rm(parent, { recursive: true, force: true });
  parent = undefined;
});

/** Every entry under `root`, with its permission bits as an octal string. */
function modesUnder(root: string): Map<string, string> {
  const modes = new Map<string, string>([[root, (fs.statSync(root).mode & 0o777).toString(8)]]);
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes.set(path.relative(root, full), (fs.lstatSync(full).mode & 0o777).toString(8));
  }
  return modes;
}

/** A DATA_DIR path whose parent exists but which does not: the server creates it. */
async function freshDataDirPath(): Promise<string> {
  parent = await mkdtemp(path.join(os.tmpdir(), 'dojo-modes-'));
  return path.join(parent, 'data');
}

/** Signup (thumbnail blob), a stored file (blob) and an open resumable session (part file). */
async function writeEverything(url: string): Promise<void> {
  expect((await postSignup(url, { thumbnail: { bytes: makePng(), name: 'a.png' } })).status).toBe(201);
  const alice = await signUpStorageUser(url);
  const upload = await uploadMultipart(url, `files/${alice.uid}/notes.txt`, Buffer.from('private notes'), {
    headers: alice.auth,
  });
  expect(upload.status).toBe(200);
  await startSession(url, `files/${alice.uid}/big.bin`, 1_000_000, { headers: alice.auth });
}

function expectPrivate(dataDir: string): void {
  const modes = modesUnder(dataDir);
  const loose = [...modes].filter(([entry, mode]) => {
    const isDirectory = fs.lstatSync(path.resolve(dataDir, entry)).isDirectory();
    return mode !== (isDirectory ? '700' : '600');
  });
  expect(loose).toEqual([]);
  const files = [...modes.keys()];
  expect(files.some((entry) => entry.startsWith(path.join('storage', 'blobs')))).toBe(true);
  expect(files.some((entry) => entry.startsWith(path.join('storage', 'uploads')))).toBe(true);
  if (testDatabaseEngine() === 'sqlite') {
    expect(files).toEqual(expect.arrayContaining(['dojo.sqlite', 'dojo.sqlite-wal', 'dojo.sqlite-shm']));
  }
}

it('creates DATA_DIR 0700 and the database, blobs and parts 0600, directories 0700', async () => {
  const dataDir = await freshDataDirPath();
  server = await startTestServer({ dataDir });
  await writeEverything(server.url);
  expectPrivate(dataDir);
});

it('tightens an existing DATA_DIR that other users could read', async () => {
  const dataDir = await freshDataDirPath();
  fs.mkdirSync(path.join(dataDir, 'storage', 'blobs'), { recursive: true, mode: 0o755 });
  fs.chmodSync(dataDir, 0o755);
  fs.chmodSync(path.join(dataDir, 'storage'), 0o775);
  fs.chmodSync(path.join(dataDir, 'storage', 'blobs'), 0o755);
  // An empty file is an empty SQLite database.
  fs.writeFileSync(path.join(dataDir, 'dojo.sqlite'), '', { mode: 0o644 });
  fs.chmodSync(path.join(dataDir, 'dojo.sqlite'), 0o644);
  server = await startTestServer({ dataDir });
  await writeEverything(server.url);
  expectPrivate(dataDir);
});

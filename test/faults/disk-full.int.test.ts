import { execFile } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { messages } from '../../src/common';
import { postJson, postSignup } from '../support/fixtures';
import { tomorrow } from '../support/clients';
import { pollUntil, WAIT_MS } from '../support/poll';
import { startTestServer, testDatabaseEngine, type TestServer } from '../support/test-server';
import {
  md5Base64,
  objectUrl,
  putObject,
  sha256,
  signUpStorageUser,
  startSession,
  testBytes,
  uploadCommand,
  uploadMultipart,
  type StorageTestUser,
} from '../../src/server/storage/testing/storage-http';

/**
 * DATA_DIR on a small tmpfs that the test fills up: writes fail with a JSON error, the server stays up,
 * reads keep working, what was acknowledged before is intact, and writes work again once space is freed.
 * On SQLite the database is on the full disk too (SQLITE_FULL); on PostgreSQL only the blobs are.
 */
const run = promisify(execFile);
const engine = testDatabaseEngine();
const FILESYSTEM_BYTES = 24 * 1024 * 1024;

let mountPoint: string;
let mounted = false;
let server: TestServer | undefined;
let user: StorageTestUser;
const fillers: string[] = [];

beforeAll(async () => {
  mountPoint = await mkdtemp(path.join(os.tmpdir(), 'dojo-disk-full-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${FILESYSTEM_BYTES},mode=0700`, 'tmpfs', mountPoint]);
  } catch (error) {
    await rm(mountPoint, { recursive: true, force: true });
    throw new Error(
      'The disk-full tests need a small file system to fill: `mount -t tmpfs` failed (they must run as root ' +
        `where mounting is allowed): ${(error as Error).message}`,
    );
  }
  mounted = true;
  server = await startTestServer({ dataDir: mountPoint, configOverrides: { logLevel: 'silent' } });
  user = await signUpStorageUser(server.url);
}, 60_000);

afterAll(async () => {
  try {
    await server?.stop();
  } finally {
    if (mounted) await run('umount', [mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  }
}, 60_000);

/** Fills the file system to the last byte with files of its own (removed by `freeSpace`). */
function fillDisk(): void {
  const block = Buffer.alloc(1024 * 1024, 7);
  for (let size = block.length; size >= 1; size = Math.floor(size / 4)) {
    const file = path.join(mountPoint, `filler-${fillers.length}`);
    fillers.push(file);
    const fd = openSync(file, 'w');
    try {
      for (;;) writeSync(fd, block, 0, size);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      closeSync(fd);
    }
  }
}

async function freeSpace(): Promise<void> {
  await Promise.all(fillers.splice(0).map((file) => rm(file, { force: true })));
}

const createProject = (name: string, details = 'x'.repeat(10_000)) =>
  postJson(
    server!.url,
    '/api/projects',
    { name, details, dueDate: tomorrow(), category: 'design', assignedUserIds: [user.uid] },
    { cookie: user.cookie },
  );

describe('a full DATA_DIR', () => {
  it('refuses writes with a JSON error, keeps reads and old data, and writes again once space is freed', async () => {
    const url = server!.url;
    const before = await createProject('Before the disk filled');
    expect(before.status).toBe(201);
    const { project } = (await before.json()) as { project: { id: string } };
    const comment = await postJson(
      url,
      `/api/projects/${project.id}/comments`,
      { content: 'kept' },
      {
        cookie: user.cookie,
      },
    );
    expect(comment.status).toBe(201);
    const objectBytes = testBytes(200_000, 5);
    const objectName = `files/${user.uid}/before.bin`;
    await putObject(url, objectName, objectBytes, { headers: user.auth });
    const resumableBytes = testBytes(3_000_000, 9);
    const uploadUrl = await startSession(url, `files/${user.uid}/resumable.bin`, resumableBytes.length, {
      headers: user.auth,
    });

    // The database reports checkpoint trouble on stderr (it opens before the server's logger exists).
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
    onTestFinished(() => warn.mockRestore());

    fillDisk();

    // Uploads: the blob cannot be written.
    const upload = await uploadMultipart(url, `files/${user.uid}/too-much.bin`, testBytes(500_000, 6), {
      headers: user.auth,
    });
    expect(upload.status).toBe(507);
    expect(await upload.json()).toEqual({
      error: { code: 507, message: messages.diskFull, requestId: expect.any(String) },
    });
    const chunk = await uploadCommand(
      uploadUrl,
      user.auth,
      'upload',
      0,
      resumableBytes.subarray(0, 1_000_000),
    );
    expect(chunk.status).toBe(507);
    // Signup stores the avatar first: it says the disk is full rather than "could not complete signup".
    const signup = await postSignup(url);
    expect(signup.status).toBe(507);
    expect(await signup.json()).toEqual({
      error: { code: 'insufficient-storage', message: messages.diskFull, requestId: expect.any(String) },
    });

    // Projects acknowledged while the disk was full (they fit in space SQLite already had).
    const acceptedWhileFull: string[] = [];
    if (engine === 'sqlite') {
      // The database is on the full disk: large enough writes cannot fit in the space SQLite already has.
      let refused: Response | undefined;
      for (let attempt = 0; attempt < 50 && !refused; attempt += 1) {
        const response = await createProject(`While full ${attempt}`);
        if (response.status === 201) {
          acceptedWhileFull.push(((await response.json()) as { project: { id: string } }).project.id);
        } else {
          refused = response;
        }
      }
      expect(refused?.status).toBe(507);
      expect(refused?.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await refused?.json()).toEqual({
        error: { code: 'insufficient-storage', message: messages.diskFull, requestId: expect.any(String) },
      });
      if (acceptedWhileFull.length > 0) {
        // Their pages cannot be checkpointed into the full database file: the checkpoint worker says so.
        await pollUntil(
          () => warnings.some((warning) => warning.includes('WAL checkpoints are failing')),
          WAIT_MS,
          () => `no warning about failing checkpoints; warnings: ${warnings.join(' | ')}`,
        );
      }
    }

    // Reads keep working, and the data from before is intact.
    const read = await fetch(`${url}/api/projects/${project.id}`, { headers: { cookie: user.cookie } });
    expect(read.status).toBe(200);
    const comments = await fetch(`${url}/api/projects/${project.id}/comments`, {
      headers: { cookie: user.cookie },
    });
    expect(comments.status).toBe(200);
    const page = (await comments.json()) as { comments: { content: string }[] };
    expect(page.comments.map((c) => c.content)).toEqual(['kept']);
    const download = await fetch(`${objectUrl(url, objectName)}?alt=media`, { headers: user.auth });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(objectBytes));
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    await freeSpace();
    if (engine === 'sqlite' && acceptedWhileFull.length > 0) {
      // The worker kept retrying: checkpoints resume off the event loop (it did not die and leave them to
      // the request path).
      await pollUntil(
        () => warnings.some((warning) => warning.includes('WAL checkpoints work again')),
        WAIT_MS,
        () => `checkpoints did not resume; warnings: ${warnings.join(' | ')}`,
      );
      expect(warnings.filter((warning) => warning.includes('fell back'))).toEqual([]);
    }
    for (const id of [project.id, ...acceptedWhileFull]) {
      const response = await fetch(`${url}/api/projects/${id}`, { headers: { cookie: user.cookie } });
      expect(response.status).toBe(200);
    }

    const after = await createProject('After space was freed');
    expect(after.status).toBe(201);
    await putObject(url, `files/${user.uid}/after.bin`, testBytes(500_000, 8), { headers: user.auth });
    const query = await uploadCommand(uploadUrl, user.auth, 'query');
    const received = Number(query.headers.get('x-goog-upload-size-received'));
    const rest = await uploadCommand(
      uploadUrl,
      user.auth,
      'upload, finalize',
      received,
      resumableBytes.subarray(received),
    );
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(resumableBytes));
  }, 90_000);

  it('leaves a database that passes its integrity check', async () => {
    if (engine === 'postgres') {
      // Only the blobs were on the full disk here, but the rows written around it must still be sound:
      // amcheck verifies every B-tree index of the schema against its table (heapallindexed).
      const client = new pg.Client({ connectionString: server!.databaseUrl });
      await client.connect();
      try {
        await client.query('CREATE EXTENSION IF NOT EXISTS amcheck');
        const { rows } = await client.query<{ index: string }>(
          `SELECT c.oid::regclass::text AS index FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_am a ON a.oid = c.relam JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE a.amname = 'btree' AND n.nspname = 'public'`,
        );
        expect(rows.length).toBeGreaterThan(0);
        for (const { index } of rows)
          await client.query('SELECT bt_index_check($1::regclass, true)', [index]);
      } finally {
        await client.end();
      }
      return;
    }
    await server!.stop();
    server = undefined;
    const sqlite = new SqliteDatabase(path.join(mountPoint, 'dojo.sqlite'), { readonly: true });
    try {
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      sqlite.close();
    }
  });
});

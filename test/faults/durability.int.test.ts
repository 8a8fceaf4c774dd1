import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postJson, postSignup, sessionCookieOf } from '../support/fixtures';
import { tomorrow } from '../support/clients';
import { pollUntil } from '../support/poll';
import { startServerProcess, type ChildServer } from '../support/server-process';
import { createTestDatabaseUrl, dropTestDatabase, testDatabaseEngine } from '../support/test-server';
import {
  md5Base64,
  objectUrl,
  sha256,
  signUpStorageUser,
  startSession,
  testBytes,
  uploadCommand,
  uploadMultipart,
} from '../../src/server/storage/testing/storage-http';

/**
 * Acknowledged means durable: the server runs as a real process and is killed with SIGKILL (no shutdown
 * code runs) in the middle of concurrent writes; after a restart on the same DATA_DIR and database every
 * write it answered 2xx is there. Power loss cannot be simulated here, so the last test checks what makes
 * a write survive one: the commit and the file names are synced before the answer is written (strace).
 */
const engine = testDatabaseEngine();
const REQUEST_TIMEOUT_MS = 10_000;

let dataDir: string;
let databaseUrl: string | undefined;
const started: ChildServer[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-durability-'));
  databaseUrl = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
});

async function start(wrapper?: string[]): Promise<ChildServer> {
  const server = await startServerProcess({ dataDir, databaseUrl, ...(wrapper ? { wrapper } : {}) });
  started.push(server);
  return server;
}

/** A URL of the old server re-pointed at the new one (it listens on another port after the restart). */
const on = (server: ChildServer, url: string): string => {
  const moved = new URL(url);
  moved.host = new URL(server.url).host;
  return moved.toString();
};

async function signUp(server: ChildServer): Promise<{ cookie: string; uid: string }> {
  const response = await postSignup(server.url);
  expect(response.status).toBe(201);
  const body = (await response.json()) as { user: { uid: string } };
  return { cookie: sessionCookieOf(response), uid: body.user.uid };
}

describe('acknowledged writes survive kill -9', () => {
  it('keeps every project and comment answered 2xx before the kill', async () => {
    let server = await start();
    const user = await signUp(server);
    const headers = { cookie: user.cookie };
    const projects = new Set<string>();
    const comments = new Map<string, string>();
    let killed = false;

    const post = (pathname: string, body: unknown): Promise<Response> =>
      fetch(`${server.url}${pathname}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });

    // Each writer creates projects and comments on them until the server is gone. A request cut by the
    // kill was never acknowledged; any other failure is a bug.
    const writer = async (writerId: number): Promise<void> => {
      try {
        for (let round = 0; ; round += 1) {
          const created = await post('/api/projects', {
            name: `Writer ${writerId} round ${round}`,
            details: 'written while the server may be killed',
            dueDate: tomorrow(),
            category: 'development',
            assignedUserIds: [user.uid],
          });
          expect(created.status).toBe(201);
          const { project } = (await created.json()) as { project: { id: string } };
          projects.add(project.id);
          for (let index = 0; index < 3; index += 1) {
            const added = await post(`/api/projects/${project.id}/comments`, { content: `comment ${index}` });
            expect(added.status).toBe(201);
            const { comment } = (await added.json()) as { comment: { id: string } };
            comments.set(comment.id, project.id);
          }
        }
      } catch (error) {
        if (!killed) throw error;
      }
    };
    const writers = Array.from({ length: 8 }, (_, index) => writer(index));

    await pollUntil(
      () => projects.size + comments.size >= 120,
      60_000,
      () =>
        `only ${projects.size + comments.size} writes were acknowledged:\n${server.output().slice(-3000)}`,
    );
    killed = true;
    const exit = await server.kill();
    expect(exit.signal).toBe('SIGKILL');
    await Promise.all(writers);

    server = await start();
    const missing: string[] = [];
    const byProject = new Map<string, string[]>();
    for (const [commentId, projectId] of comments) {
      byProject.set(projectId, [...(byProject.get(projectId) ?? []), commentId]);
    }
    await Promise.all(
      [...projects].map(async (projectId) => {
        const response = await fetch(`${server.url}/api/projects/${projectId}`, { headers });
        if (response.status !== 200) {
          missing.push(`project ${projectId} (${response.status})`);
          return;
        }
        const present = new Set(await commentIdsOf(server.url, projectId, headers));
        for (const commentId of byProject.get(projectId) ?? []) {
          if (!present.has(commentId)) missing.push(`comment ${commentId} of ${projectId}`);
        }
      }),
    );
    expect(missing).toEqual([]);
  }, 110_000);

  it('resumes an upload cut by the kill from the offset the server reports, byte-identical', async () => {
    let server = await start();
    const user = await signUpStorageUser(server.url);
    const name = `files/${user.uid}/crash.bin`;
    const bytes = testBytes(3_000_000, 21);
    const uploadUrl = await startSession(server.url, name, bytes.length, { headers: user.auth });
    const first = await uploadCommand(uploadUrl, user.auth, 'upload', 0, bytes.subarray(0, 1_000_000));
    expect(first.status).toBe(200);

    // The second chunk streams; the server is killed once part of it is on the wire.
    const chunkSize = 64 * 1024;
    let sent = 1_000_000;
    let killing: Promise<unknown> | undefined;
    const body = new ReadableStream<Uint8Array>({
      pull(stream) {
        if (sent >= 1_600_000) {
          killing ??= server.kill();
          return killing.then(() => stream.close());
        }
        stream.enqueue(bytes.subarray(sent, sent + chunkSize));
        sent += chunkSize;
        return undefined;
      },
    });
    await fetch(uploadUrl, {
      method: 'POST',
      headers: { ...user.auth, 'X-Goog-Upload-Command': 'upload', 'X-Goog-Upload-Offset': '1000000' },
      body,
      duplex: 'half',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    } as RequestInit).catch(() => undefined);
    await killing;

    server = await start();
    const query = await uploadCommand(on(server, uploadUrl), user.auth, 'query');
    expect(query.status).toBe(200);
    expect(query.headers.get('x-goog-upload-status')).toBe('active');
    const received = Number(query.headers.get('x-goog-upload-size-received'));
    expect(received).toBeGreaterThanOrEqual(1_000_000);
    expect(received).toBeLessThanOrEqual(sent);
    const rest = await uploadCommand(
      on(server, uploadUrl),
      user.auth,
      'upload, finalize',
      received,
      bytes.subarray(received),
    );
    expect(rest.status, await rest.clone().text()).toBe(200);
    expect(((await rest.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(bytes));
    const download = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: user.auth });
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));
  }, 110_000);
});

describe('acknowledged writes survive a power loss', () => {
  it('syncs the commit and the blob names before answering (seen with strace)', async () => {
    const strace = spawnSync('strace', ['-V'], { encoding: 'utf8' });
    if (strace.status !== 0) {
      throw new Error('strace is needed to observe fsync calls: install it with `apt-get install -y strace`');
    }
    const trace = path.join(dataDir, 'strace.txt');
    const server = await start([
      'strace',
      '-f',
      '-qq',
      '-yy',
      '-s',
      '512',
      '-o',
      trace,
      '-e',
      'trace=fsync,fdatasync,write,writev,pwrite64,rename,renameat,renameat2,link,linkat',
    ]);
    const user = await signUpStorageUser(server.url);
    const headers = { cookie: user.cookie };
    const answers: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await postJson(
        server.url,
        '/api/projects',
        {
          name: `Synced ${index}`,
          details: 'must be on disk before the answer',
          dueDate: tomorrow(),
          category: 'design',
          assignedUserIds: [user.uid],
        },
        headers,
      );
      answers.push(response.status);
    }
    const upload = await uploadMultipart(server.url, `files/${user.uid}/synced.bin`, testBytes(10_000, 3), {
      headers: user.auth,
    });
    answers.push(upload.status);
    expect(answers).toEqual([201, 201, 201, 200]);
    await server.stop();

    // A syscall that overlaps another thread's is printed at its start (`<unfinished ...>`) and again at
    // its end (`<... resumed>`); the patterns below match the start, which carries the arguments.
    const lines = (await readFile(trace, 'utf8')).split('\n');
    /** The trace cut at each answer sent on a TCP socket: what happened before each, in order. */
    const segments: string[][] = [[]];
    for (const line of lines) {
      segments.at(-1)!.push(line);
      if (/^\d+ +writev?\(\d+<TCP:.*HTTP\/1\.1 20[01] /.test(line)) segments.push([]);
    }
    // The three creates are the last three 201s before the upload's 200 (signup answered 201 first).
    const answered = segments.slice(0, -1);
    const creates = answered.slice(-4, -1);
    const uploadSegment = answered.at(-1)!;
    expect(creates).toHaveLength(3);

    if (engine === 'sqlite') {
      // The commit writes the WAL on the server's thread; then, before the answer, the WAL is synced. The
      // checkpoint worker (the thread that syncs the database file) syncs the WAL too, on its own
      // schedule: its syncs do not count.
      const checkpointThreads = new Set(
        lines.flatMap((line) => /^(\d+) +f(data)?sync\(\d+<[^>]*dojo\.sqlite>/.exec(line)?.[1] ?? []),
      );
      const walWrite = new RegExp(`^${server.pid} +pwrite64\\(\\d+<[^>]*dojo\\.sqlite-wal>`);
      const walSync = /^(\d+) +f(data)?sync\(\d+<[^>]*dojo\.sqlite-wal>/;
      for (const segment of creates) {
        const committed = segment.findLastIndex((line) => walWrite.test(line));
        expect(committed, 'the create commits into the WAL').toBeGreaterThanOrEqual(0);
        const synced = segment.slice(committed).some((line) => {
          const thread = walSync.exec(line)?.[1];
          return thread !== undefined && !checkpointThreads.has(thread);
        });
        expect(synced, 'the WAL is synced after the commit, before the answer').toBe(true);
      }
    }
    // The blob: renamed into its shard directory, then that directory synced, then the answer.
    const renamed = uploadSegment.findIndex((line) =>
      /rename(at2?)?\(.*\/storage\/tmp\/.*\/storage\/blobs\//.test(line),
    );
    expect(renamed, 'the blob is renamed into place').toBeGreaterThanOrEqual(0);
    const shard = /\/storage\/blobs\/([0-9a-f]{2})\//.exec(uploadSegment[renamed]!)?.[1];
    const dirSynced = uploadSegment
      .slice(renamed)
      .some((line) => new RegExp(`fsync\\(\\d+<[^>]*/storage/blobs/${shard}>`).test(line));
    expect(dirSynced, 'the shard directory is synced after the rename, before the answer').toBe(true);
  }, 110_000);
});

/** Every comment id of a project, read page by page (newest first) through the comments API. */
async function commentIdsOf(
  url: string,
  projectId: string,
  headers: Record<string, string>,
): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100', ...(cursor ? { before: cursor } : {}) });
    const response = await fetch(`${url}/api/projects/${projectId}/comments?${query}`, { headers });
    expect(response.status).toBe(200);
    const page = (await response.json()) as { comments: { id: string }[]; nextCursor: string | null };
    ids.push(...page.comments.map((comment) => comment.id));
    cursor = page.nextCursor;
  } while (cursor);
  return ids;
}

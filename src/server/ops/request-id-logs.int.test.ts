import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postJson } from '../../../test/support/fixtures';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { startServerProcess, type ChildServer } from '../../../test/support/server-process';
import {
  createTestDatabaseUrl,
  dropTestDatabase,
  testDatabaseEngine,
} from '../../../test/support/test-server';

/** The real entry point, so the log lines are the ones an operator reads (pino JSON on stdout). */
let server: ChildServer;
let dataDir: string;
let databaseUrl: string | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-logs-'));
  databaseUrl = testDatabaseEngine() === 'postgres' ? await createTestDatabaseUrl() : undefined;
  server = await startServerProcess({ dataDir, databaseUrl });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  await rm(dataDir, { recursive: true, force: true });
});

const logLinesOf = (requestId: string): Record<string, unknown>[] =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes(requestId))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

it('carries the request id on every log line of the request and in its error body', async () => {
  const requestId = 'log-trace-7f3a';
  const response = await postJson(
    server.url,
    '/api/auth/login',
    { email: 'nobody' },
    {
      'x-request-id': requestId,
    },
  );
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: { requestId: string } }).error.requestId).toBe(requestId);

  await pollUntil(
    () => logLinesOf(requestId).some((line) => line.msg === 'request completed'),
    WAIT_MS,
    () => `no completed line for ${requestId} in:\n${server.output().slice(-3000)}`,
  );
  const lines = logLinesOf(requestId);
  expect(lines.map((line) => line.msg)).toEqual(
    expect.arrayContaining(['incoming request', 'request completed']),
  );
  for (const line of lines) expect(line.reqId, JSON.stringify(line)).toBe(requestId);
});

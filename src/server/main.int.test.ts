import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabaseUrl, dropTestDatabase, testDatabaseEngine } from '../../test/support/test-server';
import { postSignup } from '../../test/support/fixtures';
import { WAIT_MS } from '../../test/support/poll';

/** The real entry point as a child process, as `npm start` runs it (minus the web build). */
function startMain(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(output: () => string, text: string, timeoutMs = WAIT_MS): Promise<void> {
  const started = Date.now();
  while (!output().includes(text)) {
    if (Date.now() - started > timeoutMs) throw new Error(`no '${text}' in output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

async function waitForUrl(output: () => string, timeoutMs = WAIT_MS): Promise<string> {
  const started = Date.now();
  for (;;) {
    const match = /running at (http:\/\/[^\s")]+)/.exec(output());
    if (match?.[1]) return match[1];
    if (Date.now() - started > timeoutMs) throw new Error(`server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('main.ts', () => {
  it('refuses a bad environment with every problem listed, and exits 1', async () => {
    const { output, exited } = startMain({ PORT: 'abc', DATABASE_URL: 'mysql://nope', DATA_DIR: '/tmp' });
    expect(await exited).toBe(1);
    expect(output()).toMatch(/Invalid configuration/);
    expect(output()).toMatch(/PORT/);
    expect(output()).toMatch(/DATABASE_URL: must start with postgres:\/\//);
  });

  it('on SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-main-'));
    const databaseUrl = testDatabaseEngine() === 'postgres' ? await createTestDatabaseUrl() : undefined;
    cleanups.push(async () => {
      await rm(dataDir, { recursive: true, force: true });
      if (databaseUrl) await dropTestDatabase(databaseUrl);
    });
    const { child, output, exited } = startMain({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const url = (await waitForUrl(output)).replace('localhost', '127.0.0.1');
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    // Signup hashes a password (tens of ms): signal as soon as the server has received the request,
    // so it is being handled when SIGTERM arrives.
    const inFlight = postSignup(url);
    await waitForOutput(output, '"url":"/api/auth/signup"');
    child.kill('SIGTERM');
    expect((await inFlight).status).toBe(201);
    expect(await exited).toBe(0);
    expect(output()).toMatch(/SIGTERM received/);
  });
});

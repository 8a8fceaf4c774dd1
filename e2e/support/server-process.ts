import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STARTED_WITHIN_MS = 60_000;
const EXITED_WITHIN_MS = 15_000;

/** A server of the test's own (not Playwright's `webServer`), so the test can stop and start it again. */
export interface OwnServer {
  url: string;
  port: number;
  pid: number;
  /** Sends `signal` to the process and waits until it has exited (SIGKILL if SIGTERM is not enough). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * Starts `scripts/e2e-server.mjs` (the suite's production server) in a child process on 127.0.0.1 with
 * its data in `tempDir`, which survives the process: a second start on the same dir and port is the same
 * app restarted. `port` 0 picks a free one. The child's stdin is a pipe, so it also ends if the test
 * runner dies.
 */
export async function startOwnServer(tempDir: string, port = 0): Promise<OwnServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/e2e-server.mjs'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      E2E_TEMP_DIR: tempDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('e2e server: spawn failed');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`e2e server: not listening within ${STARTED_WITHIN_MS} ms\n${output}`));
    }, STARTED_WITHIN_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening?.[1]) {
        clearTimeout(timer);
        resolve(listening[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`e2e server: exited before listening\n${output}`));
    });
  });

  return {
    url,
    port: Number(new URL(url).port),
    pid,
    async stop(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, signal);
      const timer = setTimeout(() => process.kill(pid, 'SIGKILL'), EXITED_WITHIN_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

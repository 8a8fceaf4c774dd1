import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The real server entry point (`src/server/main.ts`, through tsx) in a child process, for fault tests
 * that must kill it (`kill -9`) or restart the database under it. It listens on 127.0.0.1 on a port of
 * its own choosing; the URL is read from its start-up log line.
 */
export interface ServerProcessOptions {
  dataDir: string;
  /** Unset: SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** More environment variables (e.g. `LOG_LEVEL`). */
  env?: Record<string, string>;
  /** A command the server runs under, e.g. `['strace', '-f', …]`: it gets node's command line appended. */
  wrapper?: string[];
}

interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  url: string;
  /** The server's own process id (node's, also under a wrapper). */
  pid: number;
  /** Resolves once the process has exited, however it ended. */
  readonly exited: Promise<ServerExit>;
  /** True while the process has not exited. */
  running(): boolean;
  /** The last 50 kB of its stdout and stderr, for failure messages. */
  output(): string;
  /** `kill -9`: no shutdown code runs. Resolves once the process is gone. */
  kill(): Promise<ServerExit>;
  /** SIGTERM (a clean shutdown), SIGKILL after 15 s. Safe to call after it exited. */
  stop(): Promise<ServerExit>;
}

const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const KEPT_OUTPUT_CHARS = 50_000;
/** The start-up log line (pino JSON): its pid and the URL. */
const RUNNING_AT = /"pid":(\d+).*The Dojo is running at (http:\/\/\S+) /;

/** Every child started and not yet exited: killed if the test process ends without stopping them. */
const children = new Set<() => void>();
process.once('exit', () => {
  for (const kill of children) kill();
});

export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    // The start-up line that carries the URL is logged at info.
    LOG_LEVEL: 'info',
    // Tests sign up many users from 127.0.0.1; the limit has its own tests.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    // Likewise the per-user write limits and the connection cap: fault tests write fast as one user.
    PROJECT_CREATES_PER_MINUTE: '1000000',
    COMMENTS_PER_MINUTE: '1000000',
    UPLOADS_PER_MINUTE: '1000000',
    MAX_CONNECTIONS_PER_ADDRESS: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const [command = process.execPath, ...args] = [
    ...(options.wrapper ?? []),
    process.execPath,
    '--import',
    'tsx',
    MAIN,
  ];
  const child = spawn(command, args, {
    cwd: REPOSITORY,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error('the server process could not be started');
  let pid: number | undefined;
  const killNow = (): void => {
    if (pid !== undefined) signal(pid, 'SIGKILL');
    child.kill('SIGKILL');
  };
  children.add(killNow);

  let output = '';
  let onOutput: (() => void) | undefined;
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT_CHARS);
    onOutput?.();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let hasExited = false;
  const exited = new Promise<ServerExit>((resolve) => {
    child.once('exit', (code, signal) => {
      hasExited = true;
      children.delete(killNow);
      resolve({ code, signal });
    });
  });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killNow();
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    onOutput = () => {
      const match = RUNNING_AT.exec(output);
      if (!match?.[1] || !match[2]) return;
      clearTimeout(timer);
      onOutput = undefined;
      pid = Number(match[1]);
      resolve(match[2].replace('localhost', '127.0.0.1'));
    };
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (code ${code}, signal ${signal}) before listening:\n${output}`));
    });
  });

  const serverPid = pid ?? child.pid;
  const signalAndWait = async (name: NodeJS.Signals): Promise<ServerExit> => {
    // The server itself: a wrapper such as strace ends when it does.
    if (!hasExited) signal(serverPid, name);
    const force = setTimeout(killNow, STOP_TIMEOUT_MS);
    const result = await exited;
    clearTimeout(force);
    return result;
  };

  return {
    url,
    pid: serverPid,
    exited,
    running: () => !hasExited,
    output: () => output,
    kill: () => signalAndWait('SIGKILL'),
    stop: () => signalAndWait('SIGTERM'),
  };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // Already gone.
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

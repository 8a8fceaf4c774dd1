import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WAIT_MS } from './poll';
import { killByPid, stopByPid, waitForExit, type ProcessExit } from './processes';

/**
 * Servers in child processes, for tests that must kill or restart them (fault tests, e2e restarts) and
 * for the benchmarks. One lifecycle for all of them: start, wait until it listens, keep the last output
 * for failure messages, stop with SIGTERM (SIGKILL when that is not enough), and never outlive the runner.
 */

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The per-client limits, lifted: tests and benchmarks sign up many users from 127.0.0.1 and write fast as
 * one user. Each limit has tests of its own against the product's defaults.
 */
const LIMITS_LIFTED_ENV: Readonly<Record<string, string>> = {
  AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
  PROJECT_CREATES_PER_MINUTE: '1000000',
  COMMENTS_PER_MINUTE: '1000000',
  UPLOADS_PER_MINUTE: '1000000',
  EXPORTS_PER_MINUTE: '1000000',
  MAX_CONNECTIONS_PER_ADDRESS: '1000000',
};

/** A server's environment: nothing inherited but PATH and HOME, its own DATA_DIR, a free port on 127.0.0.1. */
export function serverEnv(dataDir: string, logLevel: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: logLevel,
    ...LIMITS_LIFTED_ENV,
  };
}

export interface ChildServer {
  url: string;
  /** The server's own process id (node's, also under a wrapper such as strace). */
  pid: number;
  child: ChildProcess;
  /** Resolves once the process has exited, however it ended. */
  readonly exited: Promise<ProcessExit>;
  /** True while the process has not exited. */
  running(): boolean;
  /** The last output of its stdout and stderr, for failure messages. */
  output(): string;
  /** `kill -9`: no shutdown code runs. Resolves once the process is gone. */
  kill(): Promise<ProcessExit>;
  /** SIGTERM (a clean shutdown), SIGKILL after 15 s. Safe to call after it exited. */
  stop(): Promise<ProcessExit>;
}

export interface ChildServerOptions {
  /** The command line: `[command, ...args]`. */
  command: string[];
  env: Record<string, string | undefined>;
  /** `pipe` keeps stdin open, so a child that watches it ends with the runner. */
  stdin?: 'ignore' | 'pipe';
  /** Opens an IPC channel (a child that reports by `process.send`). */
  ipc?: boolean;
  /** Reads the URL (and the server's pid, under a wrapper) from the output or an IPC message. */
  ready: {
    output?: (output: string) => { url: string; pid?: number } | undefined;
    message?: (message: unknown) => { url: string } | undefined;
  };
}

/** A start is several waits in a row (tsx compiling the server, migrations, listening). */
const START_TIMEOUT_MS = 3 * WAIT_MS;
const STOP_TIMEOUT_MS = 15_000;
const KEPT_OUTPUT_CHARS = 50_000;

/** Every child started and not yet exited: killed if the runner ends without stopping them. */
const children = new Set<() => void>();
process.once('exit', () => {
  for (const kill of children) kill();
});

export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const [command = process.execPath, ...args] = options.command;
  const stdio: StdioOptions = [
    options.stdin ?? 'ignore',
    'pipe',
    'pipe',
    ...(options.ipc ? ['ipc' as const] : []),
  ];
  const child: ChildProcess = spawn(command, args, { cwd: REPOSITORY, env: options.env, stdio });
  if (child.pid === undefined) throw new Error(`${command} could not be started`);
  let pid: number | undefined;
  const killNow = (): void => killByPid(child, pid);
  children.add(killNow);

  let output = '';
  let onOutput: (() => void) | undefined;
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-KEPT_OUTPUT_CHARS);
    onOutput?.();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let hasExited = false;
  const exited = waitForExit(child).then((exit) => {
    hasExited = true;
    children.delete(killNow);
    return exit;
  });

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killNow();
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const listening = (found: { url: string; pid?: number } | undefined): void => {
      if (!found) return;
      clearTimeout(timer);
      onOutput = undefined;
      pid = found.pid;
      resolve(found.url);
    };
    const { ready } = options;
    if (ready.output) onOutput = () => listening(ready.output?.(output));
    if (ready.message) child.on('message', (message) => listening(ready.message?.(message)));
    void exited.then(({ code, signal: exitSignal }) => {
      clearTimeout(timer);
      reject(
        new Error(`the server exited (code ${code}, signal ${exitSignal}) before listening:\n${output}`),
      );
    });
  });

  const serverPid = pid ?? child.pid;
  // The server itself is signalled: a wrapper such as strace ends when it does.
  const signalAndWait = async (name: NodeJS.Signals): Promise<ProcessExit> => {
    await stopByPid(child, { signal: name, pid: serverPid, graceMs: STOP_TIMEOUT_MS });
    return exited;
  };

  return {
    url,
    pid: serverPid,
    child,
    exited,
    running: () => !hasExited,
    output: () => output,
    kill: () => signalAndWait('SIGKILL'),
    stop: () => signalAndWait('SIGTERM'),
  };
}

export interface ServerProcessOptions {
  dataDir: string;
  /** Unset: SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  /** More environment variables (e.g. `LOG_LEVEL`). */
  env?: Record<string, string>;
  /** A command the server runs under, e.g. `['strace', '-f', …]`: it gets node's command line appended. */
  wrapper?: string[];
  /** A compiled bundle run by plain `node` with these flags, instead of src/server/main.ts through tsx. */
  bundle?: { file: string; nodeFlags: string[] };
}

const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));
/** The start-up log line (pino JSON): its pid and the URL. */
const RUNNING_AT = /"pid":(\d+).*The Dojo is running at (http:\/\/\S+) /;

/**
 * The real server entry point (`src/server/main.ts`, through tsx, or its compiled bundle), for fault tests
 * that must kill it (`kill -9`) or restart the database under it, and for the bundle's own test. It
 * listens on 127.0.0.1 on a port of its own choosing.
 */
export function startServerProcess(options: ServerProcessOptions): Promise<ChildServer> {
  return startChildServer({
    command: [
      ...(options.wrapper ?? []),
      process.execPath,
      ...(options.bundle ? [...options.bundle.nodeFlags, options.bundle.file] : ['--import', 'tsx', MAIN]),
    ],
    env: {
      // The start-up line that carries the URL is logged at info.
      ...serverEnv(options.dataDir, 'info'),
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    ready: {
      output: (output) => {
        const match = RUNNING_AT.exec(output);
        return match?.[1] && match[2]
          ? { pid: Number(match[1]), url: match[2].replace('localhost', '127.0.0.1') }
          : undefined;
      },
    },
  });
}

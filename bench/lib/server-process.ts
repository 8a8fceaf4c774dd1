import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ChildMessage, ParentMessage } from './server-child';
import { serverBuildOptions, startNodeFlags, startScript } from '../../scripts/build-server';
import { serverEnv, startChildServer, type ChildServer } from '../../test/support/server-process';

const SOURCES = {
  server: fileURLToPath(new URL('./server-child.ts', import.meta.url)),
  bare: fileURLToPath(new URL('./bare-server.ts', import.meta.url)),
};

/** Compiled entry points, once `compileServers` ran; until then children run the sources through tsx. */
let compiled: { server: string; bare: string } | undefined;

/**
 * Compiles the server child and the bare baseline with the options of `npm run build:server`
 * (scripts/build-server.ts: dependencies bundled but better-sqlite3, lazy imports in chunks of their own), so
 * benchmarks measure the server as `npm start` runs it — plain `node`, no TypeScript loader in memory. The
 * output must stay inside the repository so better-sqlite3 resolves from its node_modules.
 */
export async function compileServers(outDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build(serverBuildOptions({ 'server-child': SOURCES.server, 'bare-server': SOURCES.bare }, outDir));
  compiled = { server: path.join(outDir, 'server-child.mjs'), bare: path.join(outDir, 'bare-server.mjs') };
}

/** The `NAME=value` words in front of `node` in `npm start`, e.g. malloc tuning: set for the server alike. */
function startEnv(): Record<string, string> {
  const words = startScript().split(/\s+/);
  const nodeAt = words.indexOf('node');
  return Object.fromEntries(
    words
      .slice(0, Math.max(nodeAt, 0))
      .map((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1] ?? '', match[2] ?? '']),
  );
}

/** How to run one of the children: the compiled bundle with plain node, or the source through tsx. */
function entry(which: 'server' | 'bare'): { file: string; execArgv: string[] } {
  // The same V8 settings as production, so its memory and GC figures are the product's.
  const flags = which === 'server' ? startNodeFlags() : [];
  return compiled
    ? { file: compiled[which], execArgv: [...new Set([...flags, '--expose-gc'])] }
    : {
        file: SOURCES[which],
        execArgv: [
          ...flags.filter((flag) => flag !== '--enable-source-maps'),
          '--import',
          'tsx',
          '--expose-gc',
        ],
      };
}

export interface ServerOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Serve this web build (an absolute dir with index.html). */
  webRoot?: string;
  /** Write a V8 CPU profile of the server into this dir when it exits. */
  cpuProfDir?: string | undefined;
  env?: Record<string, string>;
}

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident set size of the server process (VmRSS from /proc), in bytes. */
  rss(): number;
  /** The server's own `process.memoryUsage()`. */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** CPU time (user + system) the server process has used so far, in ms. */
  cpuMs(): Promise<number>;
  /** A full garbage collection in the server (it runs with --expose-gc). */
  gc(): Promise<void>;
  /** SIGTERM, then waits for a clean exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

const readyUrl = (message: unknown): { url: string } | undefined => {
  const ready = message as { type?: string; url?: string } | null;
  return ready?.type === 'ready' && ready.url ? { url: ready.url } : undefined;
};

/** Starts a Dojo server in a child process on 127.0.0.1 with its own DATA_DIR; resolves once it listens. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {
    ...startEnv(),
    ...serverEnv(options.dataDir, 'warn'),
    // Thousands of sockets share a few sessions; the live caps bench passes the product's defaults back
    // (bench/live-caps.ts).
    LIVE_MAX_SOCKETS_PER_SESSION: '1000000',
    LIVE_MAX_SOCKETS_PER_USER: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.webRoot ? { BENCH_WEB_ROOT: options.webRoot } : {}),
    ...options.env,
  };
  const { file, execArgv } = entry('server');
  if (options.cpuProfDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`);
  const server = await startChildServer({
    command: [process.execPath, ...execArgv, file],
    env,
    ipc: true,
    ready: { message: readyUrl },
  });
  return withMetrics(server);
}

/**
 * How long an idle reading waits after the last request or live upgrade: past the server's quiet release
 * (10 s, src/server/app.ts), which drops caches and gives back what the burst before it left, and past
 * the SQLite WAL checkpoint thread's retirement (10 s without a write, src/server/db/database.ts).
 */
export const IDLE_AFTER_MS = 12_000;

/**
 * RSS and JS heap of a server left idle, as a small server is most of the day: nothing asked of it for
 * `IDLE_AFTER_MS`, then a full GC (docs/decisions/037-idle-readings.md).
 */
export async function idleReading(server: ServerProcess): Promise<{ rss: number; heapUsed: number }> {
  await delay(IDLE_AFTER_MS);
  await server.gc();
  await delay(500);
  const memory = await server.memory();
  return { rss: server.rss(), heapUsed: memory.heapUsed };
}

/** The child's own figures, asked for over IPC (bench/lib/server-child.ts answers). */
function withMetrics(server: ChildServer): ServerProcess {
  const { child } = server;
  const request = <T extends ChildMessage['type']>(
    message: ParentMessage,
    reply: T,
  ): Promise<Extract<ChildMessage, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (answer: ChildMessage) => {
        if (answer.type !== reply) return;
        child.off('message', onMessage);
        resolve(answer as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
      if (!child.send(message)) reject(new Error(`server is gone:\n${server.output()}`));
    });
  return {
    url: server.url,
    pid: server.pid,
    rss: () => readRss(server.pid),
    memory: async () => (await request({ type: 'memory' }, 'memory')).memory,
    gc: async () => void (await request({ type: 'gc' }, 'gc-done')),
    cpuMs: async () => {
      const { usage } = await request({ type: 'cpu' }, 'cpu');
      return (usage.user + usage.system) / 1000;
    },
    stop: async () => void (await server.stop()),
  };
}

/** VmRSS of a process in bytes (Linux). */
function readRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) * 1024;
}

/** The bare `node:http` baseline in its own process (see bare-server.ts). */
export async function startBareServer(env: Record<string, string>): Promise<ServerProcess> {
  const { file, execArgv } = entry('bare');
  const server = await startChildServer({
    command: [process.execPath, ...execArgv, file],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    ipc: true,
    ready: { message: readyUrl },
  });
  return withMetrics(server);
}

import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ChildMessage, ParentMessage } from './server-child';

const SOURCES = {
  server: fileURLToPath(new URL('./server-child.ts', import.meta.url)),
  bare: fileURLToPath(new URL('./bare-server.ts', import.meta.url)),
};

/** Compiled entry points, once `compileServers` ran; until then children run the sources through tsx. */
let compiled: { server: string; bare: string } | undefined;

/**
 * Compiles the server child and the bare baseline the way `npm run build:server` compiles the product
 * (esbuild: bundled, dependencies external, node20, source maps), so benchmarks measure the server as
 * `npm start` runs it — plain `node`, no TypeScript loader in memory. The output must stay inside the
 * repository so the external packages resolve from its node_modules.
 */
export async function compileServers(outDir: string): Promise<void> {
  await build({
    entryPoints: { 'server-child': SOURCES.server, 'bare-server': SOURCES.bare },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  compiled = { server: path.join(outDir, 'server-child.mjs'), bare: path.join(outDir, 'bare-server.mjs') };
}

/** How to run one of the children: the compiled bundle with plain node, or the source through tsx. */
function entry(which: 'server' | 'bare'): { file: string; execArgv: string[] } {
  return compiled
    ? { file: compiled[which], execArgv: ['--enable-source-maps', '--expose-gc'] }
    : { file: SOURCES[which], execArgv: ['--import', 'tsx', '--expose-gc'] };
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

/** Starts a Dojo server in a child process on 127.0.0.1 with its own DATA_DIR; resolves once it listens. */
export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    // Benchmarks sign in hundreds of clients from 127.0.0.1; the limit has its own tests.
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    // Likewise one user creates hundreds of projects, and thousands of sockets share a few sessions;
    // the live caps bench passes the product's defaults back (bench/live-caps.ts).
    PROJECT_CREATES_PER_MINUTE: '1000000',
    COMMENTS_PER_MINUTE: '1000000',
    UPLOADS_PER_MINUTE: '1000000',
    LIVE_MAX_SOCKETS_PER_SESSION: '1000000',
    LIVE_MAX_SOCKETS_PER_USER: '1000000',
    MAX_CONNECTIONS_PER_ADDRESS: '1000000',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.webRoot ? { BENCH_WEB_ROOT: options.webRoot } : {}),
    ...options.env,
  };
  const { file, execArgv } = entry('server');
  if (options.cpuProfDir) execArgv.push('--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`);
  const child = fork(file, [], { env, execArgv, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return serverHandle(child, url, () => output);
}

function serverHandle(child: ChildProcess, url: string, output: () => string): ServerProcess {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
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
      if (!child.send(message)) reject(new Error(`server is gone:\n${output()}`));
    });
  const pid = child.pid ?? -1;
  return {
    url,
    pid,
    rss: () => readRss(pid),
    memory: async () => (await request({ type: 'memory' }, 'memory')).memory,
    gc: async () => void (await request({ type: 'gc' }, 'gc-done')),
    cpuMs: async () => {
      const { usage } = await request({ type: 'cpu' }, 'cpu');
      return (usage.user + usage.system) / 1000;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
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
  const child = fork(file, [], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    execArgv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-5000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.on('message', (message: { type: string; url: string }) => {
      if (message.type === 'ready') resolve(message.url);
    });
    child.once('exit', (code) => reject(new Error(`bare server exited with ${code}:\n${output}`)));
  });
  return serverHandle(child, url, () => output);
}

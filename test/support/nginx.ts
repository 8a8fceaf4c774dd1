import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pollUntil, WAIT_MS } from './poll';
import { stopByPid } from './processes';

const NGINX = '/usr/sbin/nginx';
const NGINX_INSTALL_COMMAND = 'apt-get update && apt-get install -y nginx';
const DEPLOY_DOC = path.resolve('docs/deploy.md');
const STOP_TIMEOUT_MS = 10_000;

/** Debian's nginx: installed here when running as root on Debian, else a failure naming the command. */
function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() === 0 && existsSync('/etc/debian_version')) {
    const install = spawnSync('sh', ['-c', NGINX_INSTALL_COMMAND], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (install.status === 0 && existsSync(NGINX)) return;
  }
  throw new Error(`nginx not found at ${NGINX}. Install it with: ${NGINX_INSTALL_COMMAND}`);
}

/**
 * The ```nginx block of docs/deploy.md — the one configuration operators copy — with only its listen
 * port and upstream addresses swapped for the test's.
 */
export function deployDocNginxConfig(listenPort: number, upstreamPorts: [number, number]): string {
  const block = /```nginx\n([\s\S]*?)```/.exec(readFileSync(DEPLOY_DOC, 'utf8'))?.[1];
  if (!block) throw new Error('docs/deploy.md has no ```nginx block');
  const swaps: [string, string][] = [
    ['listen 8080;', `listen 127.0.0.1:${listenPort};`],
    ['server 127.0.0.1:3001;', `server 127.0.0.1:${upstreamPorts[0]};`],
    ['server 127.0.0.1:3002;', `server 127.0.0.1:${upstreamPorts[1]};`],
  ];
  let config = block;
  for (const [from, to] of swaps) {
    if (!config.includes(from)) throw new Error(`docs/deploy.md's nginx block no longer has "${from}"`);
    config = config.replace(from, to);
  }
  return config;
}

export interface RunningNginx {
  url: string;
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground with its own prefix, pid file and logs; `stop` ends it by its PID. */
export async function startNginx(port: number, serverConfig: string): Promise<RunningNginx> {
  ensureNginx();
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'dojo-nginx-'));
  const errorLogFile = path.join(prefix, 'error.log');
  const temp = (name: string) => path.join(prefix, name);
  await writeFile(
    temp('nginx.conf'),
    [
      // As root the workers would switch to `nobody`, who cannot use the private temp prefix.
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${temp('nginx.pid')};`,
      `error_log ${errorLogFile} info;`,
      'events { worker_connections 512; }',
      'http {',
      `  access_log ${temp('access.log')};`,
      `  client_body_temp_path ${temp('client-body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      serverConfig,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', temp('nginx.conf'), '-e', errorLogFile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // SIGQUIT: nginx's graceful shutdown (SIGTERM is its fast one).
    await stopByPid(child, { signal: 'SIGQUIT', graceMs: STOP_TIMEOUT_MS });
    await rm(prefix, { recursive: true, force: true });
  };
  try {
    await pollUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
        return (await fetch(`${url}/api/health`)).status > 0;
      },
      WAIT_MS,
      () => `nginx did not answer on ${url}: ${stderr}`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, errorLog: () => readFile(errorLogFile, 'utf8'), stop };
}

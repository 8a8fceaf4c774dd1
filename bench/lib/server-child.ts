/**
 * One Dojo server in its own process, for benchmarks: what src/server/main.ts does (loadConfig +
 * createApp + listen), plus an IPC channel to the bench (ready URL, memory, GC). Started by
 * `startServer` in ./server-process.ts; configured by environment variables like the real server, with
 * BENCH_WEB_ROOT naming the web build to serve (none when unset).
 */
import { createApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config/config';

export type ParentMessage = { type: 'memory' } | { type: 'gc' } | { type: 'cpu' };
export type ChildMessage =
  | { type: 'ready'; url: string }
  | { type: 'memory'; memory: NodeJS.MemoryUsage }
  | { type: 'gc-done' }
  | { type: 'cpu'; usage: NodeJS.CpuUsage };

const send = (message: ChildMessage): void => {
  process.send?.(message);
};

const config = { ...loadConfig(process.env), webRoot: process.env.BENCH_WEB_ROOT || undefined };
const app = await createApp(config);
const url = await app.listen();

let closing = false;
const shutDown = (): void => {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutDown);
process.on('SIGINT', shutDown);
// The bench died or closed the channel: never linger.
process.on('disconnect', shutDown);

process.on('message', (message: ParentMessage) => {
  if (message.type === 'memory') send({ type: 'memory', memory: process.memoryUsage() });
  if (message.type === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() });
  if (message.type === 'gc') {
    (globalThis as { gc?: () => void }).gc?.();
    send({ type: 'gc-done' });
  }
});

send({ type: 'ready', url: url.replace('localhost', '127.0.0.1') });

#!/usr/bin/env node
// Development: the API server (restarted on change) on port 3000 and Vite (hot reload, proxying /api,
// /v0 and /live to it) together. Output of both goes to this terminal; when either stops, or on
// Ctrl+C, both are stopped.
import { spawn } from 'node:child_process';
import process from 'node:process';

const isWindows = process.platform === 'win32';
const npx = isWindows ? 'npx.cmd' : 'npx';

/** @type {{ name: string; child: import('node:child_process').ChildProcess }[]} */
const running = [];
let stopping = false;

function start(name, args, env = {}) {
  const child = spawn(npx, args, {
    // No stdin: a process outside the terminal's foreground group that reads it would be suspended.
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
    // Own process group, so stopping it also stops what npx started (tsx's watcher and the server).
    detached: !isWindows,
    shell: isWindows,
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} stopped (${signal ?? `exit code ${code}`}); stopping the rest.`);
      stopAll(code ?? 1);
    }
  });
  child.on('error', (error) => {
    console.error(`[dev] could not start ${name}: ${error.message}`);
    stopAll(1);
  });
  running.push({ name, child });
  return child;
}

function kill(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    if (isWindows) child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function stopAll(exitCode = 0) {
  if (stopping) return;
  stopping = true;
  for (const { child } of running) kill(child, 'SIGTERM');
  const force = setTimeout(() => {
    for (const { child } of running) kill(child, 'SIGKILL');
    process.exit(exitCode);
  }, 5000);
  force.unref();
  Promise.all(
    running.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve(undefined);
          else child.once('exit', () => resolve(undefined));
        }),
    ),
  ).then(() => process.exit(exitCode));
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));
process.on('exit', () => {
  for (const { child } of running) kill(child, 'SIGKILL');
});

start('api', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], { PORT: '3000' });
start('web', ['vite']);

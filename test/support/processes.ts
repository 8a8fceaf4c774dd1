import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * The processes a test starts (Swift, nginx, PostgreSQL, child servers): picking their ports and stopping
 * them by PID, the same way in every helper.
 */

/**
 * A port free right now on 127.0.0.1, for a server that cannot listen on port 0 and report the one it
 * got. Another process may take it before the caller binds it: a caller that can, retries.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not pick a free port'));
      });
    });
  });
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Resolves once `child` has exited, however it ended (at once when it already has). */
export async function waitForExit(child: ChildProcess): Promise<ProcessExit> {
  if (!hasExited(child)) await new Promise((resolve) => child.once('exit', resolve));
  return { code: child.exitCode, signal: child.signalCode };
}

/** Sends `name` to the process `pid`; one that is already gone is not an error. */
function signalPid(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

interface StopOptions {
  /** The signal asking for a clean stop (nginx wants SIGQUIT); default SIGTERM. */
  signal?: NodeJS.Signals;
  /** How long the process may take to exit before SIGKILL. */
  graceMs: number;
  /**
   * The process to signal, when it is not `child` itself (the server under a wrapper such as strace, whose
   * exit ends the wrapper). SIGKILL goes to both.
   */
  pid?: number;
}

/**
 * Stops `child` by its PID: `signal`, then, if it has not exited within `graceMs`, SIGKILL; resolves once it
 * has exited. Safe to call after it exited.
 */
export async function stopByPid(child: ChildProcess, options: StopOptions): Promise<ProcessExit> {
  const exited = waitForExit(child);
  const pid = options.pid ?? child.pid;
  if (pid === undefined || hasExited(child)) return exited;
  signalPid(pid, options.signal ?? 'SIGTERM');
  const force = setTimeout(() => killByPid(child, pid), options.graceMs);
  const exit = await exited;
  clearTimeout(force);
  return exit;
}

/** SIGKILL to the process `pid` runs under a wrapper (when it does), then to `child` while it runs. */
export function killByPid(child: ChildProcess, pid = child.pid): void {
  if (pid !== undefined && pid !== child.pid) signalPid(pid, 'SIGKILL');
  // Once exited, the child's PID may already be another process's.
  if (child.pid !== undefined && !hasExited(child)) signalPid(child.pid, 'SIGKILL');
}

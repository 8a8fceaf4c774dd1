import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** How often the worker runs a passive checkpoint. */
const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The app's connection still checkpoints by itself once the WAL holds this many pages (≈ 40 MiB at 4 KiB
 * pages). A passive checkpoint cannot copy frames committed while it runs, and the WAL only starts over
 * once every frame is copied; under writes without a pause of a few ms the worker never catches up and
 * the WAL would grow for ever. This bound makes that one stall per ≈ 40 MiB written instead of one per
 * ≈ 4 MiB (SQLite's default of 1,000 pages).
 */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

/** SQLite's own default, restored when the worker is gone. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** A stuck checkpoint (a very slow disk) must not hold shutdown for ever. */
const STOP_TIMEOUT_MS = 5000;

/**
 * Plain CommonJS run with `eval: true`, so there is no second entry point to resolve: the same string
 * works from the TypeScript sources (tsx, vitest) and from the esbuild bundle (`npm start`). The main
 * thread passes the resolved path of better-sqlite3, since an eval'd worker resolves from the cwd.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
let failing = false;
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    if (failing) parentPort.postMessage({ type: 'recovered' });
    failing = false;
  } catch (error) {
    // A full disk (the database file cannot grow) or an I/O error: retried at the next tick, reported once.
    if (!failing) parentPort.postMessage({ type: 'failing', message: String(error && error.message) });
    failing = true;
  }
}, workerData.intervalMs);
parentPort.once('message', (message) => {
  clearInterval(timer);
  // Retired for want of writes: copy what the last ones left in the WAL before going.
  if (message === 'retire') {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  }
  db.close();
  parentPort.close();
});
`;

export interface WalCheckpointerOptions {
  /** The app's connection to `file`, in WAL mode. */
  sqlite: BetterSqlite3.Database;
  file: string;
  intervalMs?: number;
  /** Called once if the worker fails; the app's connection has gone back to checkpointing by itself. */
  onFailure: (error: unknown) => void;
  /**
   * Called when checkpoints start failing (e.g. a full disk), and with `undefined` when they work again:
   * the worker keeps retrying every `intervalMs` meanwhile.
   */
  onCheckpointTrouble?: (error: Error | undefined) => void;
  /**
   * Run the worker only while there are writes: it starts at the first `wake()` and retires (after one
   * last checkpoint) once `idleMs` pass without one; the next `wake()` starts it again. Unset: it runs
   * from the start until `stop()`. A thread's stack and arena are resident memory an idle server need not hold
   * (docs/decisions/028-idle-footprint-and-fan-out.md).
   */
  onDemand?: { idleMs: number };
}

export interface WalCheckpointer {
  /** A write was committed: start the worker if it is not running (only with `onDemand`). */
  wake(): void;
  /** Whether a worker thread is running now. */
  running(): boolean;
  /** Stops the worker and closes its connection; resolves once its thread has exited. */
  stop(): Promise<void>;
}

/**
 * Takes WAL checkpoints off the event loop. better-sqlite3 is synchronous, so SQLite's automatic
 * checkpoint (copy the WAL into the database file and fsync, run inside whichever commit crosses 1,000
 * pages) stalled that request and every one queued behind it. Instead a worker thread with its own
 * connection runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`: a passive checkpoint by another
 * connection neither waits for nor blocks the app's reads and writes.
 */
export function startWalCheckpointer({
  sqlite,
  file,
  intervalMs = CHECKPOINT_INTERVAL_MS,
  onFailure,
  onCheckpointTrouble,
  onDemand,
}: WalCheckpointerOptions): WalCheckpointer {
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  let current:
    { worker: Worker; exited: Promise<void>; retiring: boolean; wakesAtRetire: number } | undefined;
  let stopping = false;
  let failed = false;
  let lastWake = 0;
  let wakes = 0;

  const fail = (error: unknown) => {
    if (stopping || failed) return;
    failed = true;
    try {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // The connection is busy streaming a query; the backstop above still bounds the WAL.
    }
    onFailure(error);
  };

  const spawn = () => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      name: 'dojo-wal-checkpointer',
      workerData: {
        betterSqlite3: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        intervalMs,
      },
      // Nothing to inherit: no TypeScript loader (tsx) to boot in a thread that runs plain JS.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    // Like the connection itself, the worker does not keep the process alive; stop() refs it while it ends.
    worker.unref();
    const running = {
      worker,
      retiring: false,
      wakesAtRetire: 0,
      exited: new Promise<void>((resolve) => {
        worker.once('exit', (code) => {
          if (current === running) current = undefined;
          if (!running.retiring) fail(new Error(`the WAL checkpoint worker exited with code ${code}`));
          // A write woke it while it was retiring: its last checkpoint may have missed that write.
          else if (wakes !== running.wakesAtRetire && !stopping && !failed) spawn();
          resolve();
        });
      }),
    };
    worker.on('error', fail);
    worker.on('message', (message: { type: 'failing'; message: string } | { type: 'recovered' }) => {
      onCheckpointTrouble?.(message.type === 'failing' ? new Error(message.message) : undefined);
    });
    current = running;
  };

  const idleCheck = onDemand
    ? setInterval(
        () => {
          if (!current || current.retiring || Date.now() - lastWake < onDemand.idleMs) return;
          current.retiring = true;
          current.wakesAtRetire = wakes;
          current.worker.postMessage('retire');
        },
        Math.min(onDemand.idleMs, 1000),
      )
    : undefined;
  idleCheck?.unref();
  if (!onDemand) spawn();

  return {
    wake() {
      lastWake = Date.now();
      wakes += 1;
      if (onDemand && !current && !stopping && !failed) spawn();
    },
    running: () => current !== undefined && !current.retiring,
    async stop() {
      if (idleCheck) clearInterval(idleCheck);
      const running = current;
      if (!stopping) {
        stopping = true;
        if (running && !running.retiring) {
          running.worker.ref();
          running.worker.postMessage('stop');
        }
      }
      if (!running) return;
      const timeout = setTimeout(() => void running.worker.terminate(), STOP_TIMEOUT_MS);
      await running.exited;
      clearTimeout(timeout);
    },
  };
}

import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WAIT_MS } from '../../../test/support/poll';
import { openDatabase } from './database';
import {
  BACKSTOP_AUTOCHECKPOINT_PAGES,
  startWalCheckpointer,
  type WalCheckpointer,
  type WalCheckpointerOptions,
} from './wal-checkpointer';

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

async function waitFor(condition: () => boolean, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await delay(20);
  }
}

describe('startWalCheckpointer', () => {
  let dir: string;
  let file: string;
  let sqlite: SqliteDatabase.Database;
  let checkpointer: WalCheckpointer | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dojo-wal-'));
    file = path.join(dir, 'test.sqlite');
    sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec('create table blobs (id integer primary key, body blob not null)');
  });

  afterEach(async () => {
    await checkpointer?.stop();
    checkpointer = undefined;
    if (sqlite.open) sqlite.close();
    await rm(dir, { recursive: true, force: true });
  });

  const writeRows = (count: number) => {
    const insert = sqlite.prepare('insert into blobs (body) values (?)');
    sqlite.transaction(() => {
      for (let index = 0; index < count; index += 1) insert.run(Buffer.alloc(4000, index % 256));
    })();
  };
  /** Every page of the database is in its file: a checkpoint copied the whole WAL. */
  const checkpointed = () =>
    sizeOf(file) ===
    Number(sqlite.pragma('page_count', { simple: true })) *
      Number(sqlite.pragma('page_size', { simple: true }));
  /**
   * A checkpoint pass found every frame of the WAL copied, so the next write starts the WAL over: the
   * WAL index (`-shm`, https://www.sqlite.org/walformat.html) says so, as mxFrame (the header's byte 16)
   * equal to nBackfill (byte 96), both in the machine's byte order.
   */
  const walFullyCopied = () => {
    const shm = readFileSync(`${file}-shm`);
    const at = (offset: number) =>
      os.endianness() === 'LE' ? shm.readUInt32LE(offset) : shm.readUInt32BE(offset);
    return at(16) > 0 && at(96) === at(16);
  };

  /** Starts the checkpointer on this test's database every 20 ms; `failures` collects what it reports. */
  const start = (options: Partial<WalCheckpointerOptions> = {}) => {
    const failures: unknown[] = [];
    checkpointer = startWalCheckpointer({
      sqlite,
      file,
      intervalMs: 20,
      onFailure: (error) => failures.push(error),
      ...options,
    });
    return { checkpointer, failures };
  };

  it('checkpoints from its own thread, so the WAL starts over instead of growing', async () => {
    const { failures } = start();
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);

    writeRows(512);
    const walAfterFirst = sizeOf(`${file}-wal`);
    expect(walAfterFirst).toBeGreaterThan(2_000_000);
    // The pages reach the database file only through a checkpoint, and this connection runs none.
    await waitFor(checkpointed);
    expect(sizeOf(file)).toBeGreaterThan(2_000_000);
    await waitFor(walFullyCopied);

    // Half as much again: appended to the WAL it would grow by half; it starts over from the beginning.
    writeRows(256);
    expect(sizeOf(`${file}-wal`)).toBeLessThanOrEqual(walAfterFirst);
    await waitFor(checkpointed);
    expect(sqlite.prepare('select count(*) as n from blobs').get()).toEqual({ n: 768 });
    expect(failures).toEqual([]);
  });

  it('on demand: no thread until a write wakes it, and it retires after the idle time, WAL copied', async () => {
    const { checkpointer: active, failures } = start({ onDemand: { idleMs: 200 } });
    expect(active.running()).toBe(false);
    writeRows(64);
    expect(checkpointed()).toBe(false);
    active.wake();
    expect(active.running()).toBe(true);
    await waitFor(checkpointed);
    await waitFor(() => !active.running());

    // Writes made while it retires or is gone are copied once a later write wakes it again (a wake
    // during retirement starts a new thread once the old one has exited).
    writeRows(64);
    expect(checkpointed()).toBe(false);
    active.wake();
    await waitFor(checkpointed);
    await waitFor(() => !active.running());
    expect(failures).toEqual([]);
  }, 30_000);

  it('falls back to SQLite’s automatic checkpoints and reports when the worker fails', async () => {
    const { checkpointer: failing, failures } = start({ file: path.join(dir, 'missing.sqlite') });
    await waitFor(() => failures.length > 0);
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(failures).toHaveLength(1);
    await failing.stop(); // resolves for a worker that already ended
  });
});

describe('openDatabase on SQLite', () => {
  it('runs the checkpointer and stops it on close, so the process can exit', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-wal-open-'));
    try {
      const database = await openDatabase({ dataDir, databaseUrl: undefined });
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
        database.db,
      );
      expect(rows).toEqual([{ wal_autocheckpoint: BACKSTOP_AUTOCHECKPOINT_PAGES }]);
      await database.close();
      // The last connection to close removes the WAL: the worker's was closed too.
      expect(sizeOf(path.join(dataDir, 'dojo.sqlite-wal'))).toBe(0);

      // A process that opens and closes the database exits by itself; a leaked worker would hold it.
      const script = `
        const { openDatabase } = await import(${JSON.stringify(fileURLToPath(new URL('./database.ts', import.meta.url)))});
        const database = await openDatabase({ dataDir: ${JSON.stringify(dataDir)}, databaseUrl: undefined });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await database.close();
        process.stdout.write('closed');
      `;
      const child = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '--eval', script],
        { timeout: WAIT_MS },
      );
      expect(child.stdout).toBe('closed');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

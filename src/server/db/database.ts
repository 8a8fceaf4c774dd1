import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import type { Database, DialectName } from './schema';
import { migrationProviderFor } from './migrations';
import { SqliteDialectKeepingErrors } from './sqlite-dialect';
import { withStatementCache } from './statement-cache';
import { startWalCheckpointer } from './wal-checkpointer';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../core/private-files';
import { WalSync } from './wal-sync';
import { syncDirectory } from '../core/durable-fs';
import { loadPg, numericInt8Types } from './pg-driver';
import { openSqliteFile } from './sqlite-file';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The connection string when on PostgreSQL (live fan-out opens its own LISTEN connection). */
  postgresUrl: string | undefined;
  /**
   * Resolves once every commit made so far survives a power loss. A write is answered only after it
   * (app.ts). PostgreSQL's commit is already durable; SQLite's waits for a group sync of its WAL.
   */
  durable(): Promise<void>;
  /**
   * Marks the commits made so far; the function returned resolves once they are durable, sharing a sync
   * that started after the mark (the one the answer of the request that made them waits for) rather than
   * starting another. Live fan-out waits on it, so a change goes out after its writer's answer
   * (docs/decisions/031-answer-before-fan-out.md).
   */
  markCommits(): () => Promise<void>;
  /**
   * Gives back the memory the database keeps between queries (SQLite's page cache; nothing on
   * PostgreSQL, whose caches live in its own server). The next queries read their pages again.
   */
  releaseMemory(): void;
  close(): Promise<void>;
}

/**
 * SQLite's page cache of the app's connection, in KiB (a negative `cache_size`). better-sqlite3 builds
 * SQLite with 16 MiB, which stays filled once a large list was read: 4 MiB holds the pages a
 * 1,000-project page reads, and the rest comes from the OS page cache
 * (docs/decisions/030-idle-footprint-cuts.md, second addendum).
 */
const SQLITE_PAGE_CACHE_KIB = 4096;

/** The WAL checkpoint thread retires after this long without a write (decision 028). */
const CHECKPOINTER_IDLE_MS = 10_000;

/** Where the database reports trouble it recovers from by itself (pino's signature). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  /** Defaults to stderr: the database opens before the server's logger exists. */
  log?: DatabaseLog;
  /** Test-only seam: migrations run after the real ones (a deliberately failing one proves the rollback). */
  extraMigrations?: Record<string, Migration>;
}

const stderrLog: DatabaseLog = {
  warn: (details, message) => console.warn(message, details),
};

/** Opens the database (SQLite file by default, PostgreSQL with a URL) and runs every pending migration. */
export async function openDatabase({
  dataDir,
  databaseUrl,
  log = stderrLog,
  extraMigrations = {},
}: DatabaseOptions): Promise<DatabaseHandle> {
  const handle = databaseUrl ? await openPostgres(databaseUrl, log) : openSqlite(dataDir, log);
  try {
    await migrate(handle.db, handle.dialect, extraMigrations);
    // The database and WAL files exist now: their names must survive a power loss too (SQLite syncs the
    // directory itself only with synchronous = FULL).
    if (handle.dialect === 'sqlite') await syncDirectory(dataDir);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

function openSqlite(dataDir: string, log: DatabaseLog): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dataDir, 'dojo.sqlite');
  // SQLite gives its -wal and -shm files the database file's mode: create that one private first.
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  const sqlite = openSqliteFile(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // NORMAL: a commit writes the WAL without syncing it, which survives a crash of the process. A write
  // must also survive a power loss before it is answered: `durable()` syncs the WAL off the event loop
  // for every commit so far at once (wal-sync.ts, docs/decisions/014-durability.md).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
  const checkpointer = startWalCheckpointer({
    sqlite,
    file,
    onDemand: { idleMs: CHECKPOINTER_IDLE_MS },
    onFailure: (error) =>
      log.warn({ err: error }, 'WAL checkpoints fell back to SQLite’s automatic ones (slower writes)'),
    onCheckpointTrouble: (error) =>
      error
        ? log.warn({ err: error }, 'WAL checkpoints are failing (is the disk full?); retrying every second')
        : log.warn({}, 'WAL checkpoints work again'),
  });
  const db = new Kysely<Database>({
    dialect: new SqliteDialectKeepingErrors({ database: withStatementCache(sqlite) }, sqlite),
  });
  const walSync = new WalSync(`${file}-wal`);
  return {
    db,
    dialect: 'sqlite',
    postgresUrl: undefined,
    durable: () => {
      checkpointer.wake();
      return walSync.sync();
    },
    // Does not wake the checkpoint thread: the writes that only live fan-out syncs (presence) never
    // did, and an idle server with open tabs must not keep it alive (decision 028).
    markCommits: () => {
      const mark = walSync.mark();
      return () => walSync.syncSince(mark);
    },
    releaseMemory: () => {
      sqlite.pragma('shrink_memory');
    },
    // The worker goes first: the last connection to close checkpoints and removes the WAL.
    close: async () => {
      try {
        await checkpointer.stop();
        await walSync.close();
      } finally {
        await db.destroy();
      }
    },
  };
}

async function openPostgres(url: string, log: DatabaseLog): Promise<DatabaseHandle> {
  const pg = await loadPg();
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // Kept open when idle (the others close after 10 s): a write after a quiet spell, the usual pace of
    // a team's dashboard, would otherwise pay a new connection and a new backend's cold caches first
    // (docs/decisions/033-list-json-and-one-sync-per-write.md).
    min: 2,
    types: numericInt8Types(pg),
  });
  // An idle connection that the server ends (a restart, a failover, an idle timeout) is reported here and
  // dropped by the pool; the next query opens a fresh one. Without a listener the error ends the process.
  pool.on('error', (error) =>
    log.warn({ err: error }, 'a PostgreSQL connection was lost; the pool replaces it'),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    postgresUrl: url,
    durable: () => Promise.resolve(),
    markCommits: () => () => Promise.resolve(),
    releaseMemory: () => undefined,
    close: () => db.destroy(),
  };
}

/** Names of migrations this code knows that the database has not run (another instance may be older). */
export async function pendingMigrations(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({ db: handle.db, provider: migrationProviderFor(handle.dialect) });
  const migrations = await migrator.getMigrations();
  return migrations
    .filter((migration) => migration.executedAt === undefined)
    .map((migration) => migration.name);
}

/**
 * Runs every pending migration in ONE transaction on both engines (sqlite-dialect.ts): one that fails
 * leaves the data exactly as it was, and the error names it.
 */
async function migrate(
  db: Kysely<Database>,
  dialect: DialectName,
  extraMigrations: Record<string, Migration>,
): Promise<void> {
  const provider = migrationProviderFor(dialect);
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({ ...(await provider.getMigrations()), ...extraMigrations }),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed?.migrationName ?? 'run';
    const reason = error instanceof Error ? `: ${error.message}` : '';
    throw new Error(
      `Database migration ${name} failed${reason}. Nothing was changed: every pending migration ` +
        `was rolled back. Fix the cause and start the server again.`,
      { cause: error },
    );
  }
}

/** True when a write failed on a unique or primary-key constraint, on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

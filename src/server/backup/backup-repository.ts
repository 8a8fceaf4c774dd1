import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { loadPg, numericInt8Types } from '../db/pg-driver';
import { openSqliteFile } from '../db/sqlite-file';

export type TableRow = Record<string, unknown>;

/**
 * Every table, parents before children (foreign keys), except the derived search tables (rebuilt by the
 * triggers of 0013 as rows are inserted) and `storage_uploads` (resumable uploads in progress: their bytes
 * are partial, the client starts them again), `project_viewers` (who has a project open right now),
 * `sign_in_flows` (sign-ins in progress, minutes long) and `import_jobs` (admins' imports, each with its
 * whole file). The type check below fails when a table is added to the schema and not listed here or in
 * `NotExported`.
 */
export const EXPORTED_TABLES = [
  'users',
  'settings',
  'sessions',
  'invitations',
  'password_resets',
  'storage_objects',
  'projects',
  'project_assignees',
  'comments',
  'attachments',
  'live_presence',
  'rate_limits',
  'notifications',
  'notification_preferences',
  'notification_emails',
  'notification_jobs',
  'external_identities',
  'passkeys',
  'totp_factors',
  'recovery_codes',
  'calendar_feeds',
  'webhook_endpoints',
  'webhook_deliveries',
  'imported_sources',
] as const satisfies readonly (keyof Database)[];
type NotExported = Extract<
  keyof Database,
  'storage_uploads' | 'project_viewers' | 'sign_in_flows' | 'import_jobs'
>;
type Unlisted = Exclude<keyof Database, (typeof EXPORTED_TABLES)[number] | NotExported>;
const everyTableListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyTableListed;

export type ExportedTable = (typeof EXPORTED_TABLES)[number];

/** `settings` keys of the blob-deletion holds an export takes (blob-deletion-hold.ts). */
export const DELETION_HOLD_PREFIX = 'backup.deletion_hold.';

export interface Snapshot {
  /** The last migration applied. */
  schemaVersion: string;
  tables: Record<ExportedTable, TableRow[]>;
}

/** Where a snapshot is read from: a second connection of its own, never the server's. */
export interface SnapshotSource {
  dataDir: string;
  databaseUrl: string | undefined;
}

/**
 * Takes a blob-deletion hold (committed first), then reads every exported table in ONE read transaction:
 * SQLite in WAL mode gives a second connection a stable snapshot without blocking writers; PostgreSQL's
 * REPEATABLE READ does the same. Writes go on meanwhile.
 */
export async function readSnapshot(
  source: SnapshotSource,
  holdKey: string,
  holdUntil: string,
): Promise<Snapshot> {
  return source.databaseUrl
    ? readPostgresSnapshot(source.databaseUrl, holdKey, holdUntil)
    : readSqliteSnapshot(path.join(source.dataDir, 'dojo.sqlite'), holdKey, holdUntil);
}

function readSqliteSnapshot(file: string, holdKey: string, holdUntil: string): Snapshot {
  const sqlite = openSqliteFile(file, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    sqlite.prepare('insert or replace into settings (key, value) values (?, ?)').run(holdKey, holdUntil);
    const read = sqlite.transaction(() => {
      const schemaVersion = lastSqliteMigration(sqlite);
      const tables = Object.fromEntries(
        EXPORTED_TABLES.map((table) => [
          table,
          sqlite.prepare(`select * from "${table}"`).all() as TableRow[],
        ]),
      ) as Record<ExportedTable, TableRow[]>;
      return { schemaVersion, tables };
    });
    // DEFERRED: the snapshot starts at the first read inside, and every later read sees the same one.
    return read.deferred();
  } finally {
    sqlite.close();
  }
}

function lastSqliteMigration(sqlite: SqliteDatabase.Database): string {
  const row = sqlite.prepare('select name from kysely_migration order by name desc limit 1').get() as
    { name: string } | undefined;
  return row?.name ?? '';
}

async function readPostgresSnapshot(url: string, holdKey: string, holdUntil: string): Promise<Snapshot> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url, types: numericInt8Types(pg) });
  await client.connect();
  try {
    await client.query(
      'insert into settings (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value',
      [holdKey, holdUntil],
    );
    await client.query('begin isolation level repeatable read read only');
    const version = await client.query<{ name: string }>(
      'select name from kysely_migration order by name desc limit 1',
    );
    const tables: Partial<Record<ExportedTable, TableRow[]>> = {};
    for (const table of EXPORTED_TABLES) {
      tables[table] = (await client.query<TableRow>(`select * from "${table}"`)).rows;
    }
    await client.query('commit');
    return {
      schemaVersion: version.rows[0]?.name ?? '',
      tables: tables as Record<ExportedTable, TableRow[]>,
    };
  } finally {
    await client.end();
  }
}

/** Ends the hold an export took (a crashed export's hold simply expires). */
export async function releaseDeletionHold(source: SnapshotSource, holdKey: string): Promise<void> {
  if (source.databaseUrl) {
    const pg = await loadPg();
    const client = new pg.Client({ connectionString: source.databaseUrl });
    await client.connect();
    try {
      await client.query('delete from settings where key = $1', [holdKey]);
    } finally {
      await client.end();
    }
    return;
  }
  const sqlite = openSqliteFile(path.join(source.dataDir, 'dojo.sqlite'), { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    sqlite.prepare('delete from settings where key = ?').run(holdKey);
  } finally {
    sqlite.close();
  }
}

/** True while an export holds blob deletions back (any unexpired hold). */
export async function deletionHeld(db: Kysely<Database>, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('key')
    .where('key', 'like', `${DELETION_HOLD_PREFIX}%`)
    .where('value', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function lastMigration(db: Kysely<Database>): Promise<string> {
  const result = await sql<{
    name: string;
  }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return result.rows[0]?.name ?? '';
}

/** The exported tables that hold rows (an import only goes into an empty install). */
export async function nonEmptyTables(db: Kysely<Database>): Promise<ExportedTable[]> {
  const found: ExportedTable[] = [];
  for (const table of EXPORTED_TABLES) {
    const result = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(db);
    if (result.rows.length > 0) found.push(table);
  }
  return found;
}

const INSERT_BATCH_ROWS = 100;

/**
 * Inserts every table's rows in ONE transaction, keeping `seq` keys; on PostgreSQL the identity sequences
 * then continue past the largest imported key (SQLite's AUTOINCREMENT does so by itself).
 */
export async function insertAll(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  tables: Record<ExportedTable, TableRow[]>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of EXPORTED_TABLES) {
      const rows = tables[table];
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0] ?? {});
      const hasSeq = columns.includes('seq');
      const overriding = dialect === 'postgres' && hasSeq ? sql`overriding system value` : sql``;
      for (let start = 0; start < rows.length; start += INSERT_BATCH_ROWS) {
        const batch = rows.slice(start, start + INSERT_BATCH_ROWS);
        const values = batch.map((row) => sql`(${sql.join(columns.map((column) => row[column] ?? null))})`);
        await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))})
          ${overriding} values ${sql.join(values)}`.execute(trx);
      }
      if (dialect === 'postgres' && hasSeq) {
        await sql`select setval(pg_get_serial_sequence(${table}, 'seq'), (select max(seq) from ${sql.table(table)}))`.execute(
          trx,
        );
      }
    }
  });
}

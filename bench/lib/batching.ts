import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  SqliteDialect,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/server/db/schema';
import { withStatementCache } from '../../src/server/db/statement-cache';

/**
 * A second handle on the same database whose *transactions are savepoints*, for bulk seeding through
 * the services. `ProjectsService.create` opens a transaction per project; on this handle it becomes a
 * savepoint inside a batch transaction that the seeder opens (`begin`) and commits (`commit`) every few
 * thousand calls. Validation, statements and rollback-on-error stay exactly those of the service; only the
 * commit (a WAL append on SQLite, a round trip and WAL flush on PostgreSQL) is shared by the batch.
 *
 * It uses one connection (SQLite has one anyway; the PostgreSQL pool is capped at 1), so every service
 * call runs on the connection that holds the batch transaction.
 */
export interface BatchingDatabase {
  db: Kysely<Database>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

const SAVEPOINT = 'dojo_seed_call';
const PG_INT8_OID = 20;

class SavepointDriver implements Driver {
  constructor(private readonly inner: Driver) {}
  init(): Promise<void> {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    return this.inner.acquireConnection();
  }
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${SAVEPOINT}`));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${SAVEPOINT}`));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${SAVEPOINT}`));
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${SAVEPOINT}`));
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }
  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function savepointDialect(inner: Dialect): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new SavepointDriver(inner.createDriver()),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}

/** Opens the batching handle; the schema must exist already (open the database normally first). */
export function openBatchingDatabase(options: {
  dataDir: string;
  databaseUrl: string | undefined;
}): BatchingDatabase {
  let inner: Dialect;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 1,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === PG_INT8_OID
            ? Number
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    inner = new PostgresDialect({ pool });
  } else {
    // The same pragmas as the server's own handle (src/server/db/database.ts).
    const sqlite = new SqliteDatabase(path.join(options.dataDir, 'dojo.sqlite'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    // Statements are prepared once and reused, as on the server's handle.
    inner = new SqliteDialect({ database: withStatementCache(sqlite) });
  }
  const db = new Kysely<Database>({ dialect: savepointDialect(inner) });
  return {
    db,
    begin: async () => void (await sql`begin`.execute(db)),
    commit: async () => void (await sql`commit`.execute(db)),
    rollback: async () => void (await sql`rollback`.execute(db)),
    close: () => db.destroy(),
  };
}

import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';

/**
 * Kysely's SQLite dialect, keeping the error that ended a transaction. When a statement or the commit
 * fails with SQLITE_FULL (disk full), SQLITE_IOERR or SQLITE_NOMEM, SQLite rolls the transaction back by
 * itself; Kysely's ROLLBACK then fails with "cannot rollback - no transaction is active", and that error
 * replaced the real one (a full disk answered 500 instead of 507).
 */
export class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly sqlite: BetterSqlite3.Database,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new SqliteDriverKeepingErrors(this.config, this.sqlite);
  }

  override createAdapter(): DialectAdapter {
    return new SqliteAdapterWithTransactionalDdl();
  }
}

/**
 * SQLite's DDL is transactional, but Kysely's adapter says it is not, so its Migrator would run migrations
 * outside a transaction and a failing one would leave half its changes. Saying so makes the Migrator run
 * every pending migration in one transaction, as on PostgreSQL (docs/decisions/023-backup-and-upgrades.md).
 */
class SqliteAdapterWithTransactionalDdl extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class SqliteDriverKeepingErrors extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: BetterSqlite3.Database,
  ) {
    super(config);
  }

  /**
   * `begin immediate`: the write lock is taken at the start, waiting up to the busy timeout. With Kysely's
   * plain `begin` a transaction that read first and then wrote failed at once (SQLITE_BUSY_SNAPSHOT, which
   * no busy timeout retries) when another connection had written meanwhile: the export CLI writes its
   * deletion hold while the server runs (an avatar change under export answered 500 once in a fresh-clone
   * run). The server's own statements share one connection, so nothing else waits longer.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

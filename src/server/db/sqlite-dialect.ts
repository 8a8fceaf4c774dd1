import type BetterSqlite3 from 'better-sqlite3';
import {
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

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

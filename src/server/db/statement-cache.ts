import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Distinct SQL texts the app issues are a few dozen; `in (?, ?, …)` lists of varying length add more.
 * A prepared statement costs a few KiB, so a few hundred bound the memory without evicting hot ones.
 */
const STATEMENT_CACHE_CAPACITY = 300;

/** The database Kysely's `SqliteDialect` takes, plus the cache size (for tests). */
export interface CachingSqliteDatabase extends SqliteDatabase {
  readonly cachedStatements: number;
}

/**
 * Wraps a better-sqlite3 connection for `SqliteDialect` so statements are prepared once per SQL text:
 * Kysely's `SqliteDriver` calls `prepare` for every query, a large share of a create's time.
 *
 * A better-sqlite3 statement is reusable once a call returns, but not while an `iterate()` on it is open
 * (Kysely's `stream()`): then `busy` is set and this use gets a fresh, uncached statement instead.
 * Least recently used statements are dropped beyond `capacity`; better-sqlite3 finalizes them when
 * they are collected.
 */
export function withStatementCache(
  sqlite: BetterSqlite3.Database,
  capacity = STATEMENT_CACHE_CAPACITY,
): CachingSqliteDatabase {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recent first.
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    get cachedStatements() {
      return statements.size;
    },
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached) {
        if (cached.busy) return sqlite.prepare(text);
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > capacity) {
        const leastRecent = statements.keys().next().value;
        if (leastRecent !== undefined) statements.delete(leastRecent);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

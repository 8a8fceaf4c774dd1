import { createRequire } from 'node:module';
import SqliteDatabase from 'better-sqlite3';

let addonPath: string | undefined;

/**
 * Opens an SQLite file with better-sqlite3, naming its compiled addon outright.
 *
 * The server bundle carries better-sqlite3's JavaScript (scripts/build-server.ts), and only the addon is
 * loaded from node_modules. Left to itself, the package finds its addon through the `bindings` package,
 * which tries a dozen candidate paths relative to the calling file: from the bundle it would look in the
 * wrong place, and from node_modules it costs a start-up enough module-loader path work to bring in V8's
 * optimizing compiler (docs/decisions/039-no-driver-at-start.md).
 */
export function openSqliteFile(file: string, options: SqliteDatabase.Options = {}): SqliteDatabase.Database {
  return new SqliteDatabase(file, { ...options, nativeBinding: sqliteAddonPath() });
}

function sqliteAddonPath(): string {
  if (addonPath === undefined) {
    try {
      addonPath = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch (error) {
      throw new Error('better-sqlite3 has no compiled addon: run `npm ci` (it builds or fetches it)', {
        cause: error,
      });
    }
  }
  return addonPath;
}

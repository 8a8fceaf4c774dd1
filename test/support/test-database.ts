import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import type { TestServer } from './test-server';

/**
 * A second connection to the database a test server uses, on either engine, for what the API cannot set
 * up (a session about to expire, a rate-limit window that has ended). The caller closes it.
 */
export function openServerDatabase(server: TestServer): Promise<DatabaseHandle> {
  return openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
}

/** Runs `action` on a second connection to the test server's database (openServerDatabase), closed after it. */
async function withServerDatabase<T>(
  server: TestServer,
  action: (database: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const database = await openServerDatabase(server);
  try {
    return await action(database);
  } finally {
    await database.close();
  }
}

/**
 * Moves the expiry of the links (`table`'s rows whose `column` is `value`) into the past: what their end
 * looks like, without waiting for it.
 */
export async function expireLinks(
  server: TestServer,
  table: 'invitations' | 'password_resets',
  column: 'id' | 'user_id',
  value: string,
): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  await withServerDatabase(server, ({ db }) =>
    sql`update ${sql.table(table)} set expires_at = ${past} where ${sql.ref(column)} = ${value}`.execute(db),
  );
}

import { openDatabase, type DatabaseHandle } from '../../src/server/db/database';
import type { TestServer } from './test-server';

/**
 * A second connection to the database a test server uses, on either engine, for what the API cannot set
 * up (a session about to expire, a rate-limit window that has ended). The caller closes it.
 */
export function openServerDatabase(server: TestServer): Promise<DatabaseHandle> {
  return openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
}

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/server/config/config';
import { createTestDatabaseUrl, dropTestDatabase, testDatabaseEngine } from './test-server';

/**
 * An install for export/import tests: its own DATA_DIR and, on the PostgreSQL project, its own database.
 * `env` carries the storage settings too (e.g. STORAGE_DRIVER and the S3 ones), so a test can point the
 * target at another storage driver without changing.
 */
export interface BackupInstall {
  dataDir: string;
  databaseUrl: string | undefined;
  config: Config;
  /** The storage settings it was made with, for a server or CLI started on it. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function createBackupInstall(
  engine: 'sqlite' | 'postgres' = testDatabaseEngine(),
  env: Record<string, string> = {},
): Promise<BackupInstall> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-backup-'));
  const databaseUrl = engine === 'postgres' ? await createTestDatabaseUrl() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  return {
    dataDir,
    databaseUrl,
    config,
    env,
    remove: async () => {
      if (databaseUrl) await dropTestDatabase(databaseUrl);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database';
import { startPostgresCluster } from './postgres-cluster';

/**
 * A database migrated once per run, which each test server's database is copied from: running every
 * migration again for each of the suite's hundreds of servers cost a few minutes of CPU a run. Tests of the
 * migrations themselves start from an empty database (`createTestDatabaseUrl()`).
 */
const MIGRATED_TEMPLATE = 'dojo_migrated_template';

async function createMigratedTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${MIGRATED_TEMPLATE}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${MIGRATED_TEMPLATE}`;
  // No DATA_DIR is written on PostgreSQL; the database closes before any copy is made of it.
  const database = await openDatabase({ dataDir: '', databaseUrl: url.toString() });
  await database.close();
}

/**
 * globalSetup of the `integration-postgres` project: one throwaway cluster for the whole run. Each test
 * server creates its own database on it (see test-server.ts), so test files stay isolated.
 * Set DOJO_TEST_POSTGRES_URL to an admin URL to use an existing server instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const existing = process.env.DOJO_TEST_POSTGRES_URL;
  if (existing) {
    project.provide('postgresAdminUrl', existing);
    return async () => undefined;
  }
  const cluster = await startPostgresCluster();
  try {
    await createMigratedTemplate(cluster.url);
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  project.provide('postgresAdminUrl', cluster.url);
  project.provide('postgresMigratedTemplate', MIGRATED_TEMPLATE);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection URL of the run's PostgreSQL cluster; only in the integration-postgres project. */
    postgresAdminUrl: string;
    /** A database with every migration run, to copy; absent with DOJO_TEST_POSTGRES_URL. */
    postgresMigratedTemplate?: string;
  }
}

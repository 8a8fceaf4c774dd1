import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

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
  project.provide('postgresAdminUrl', cluster.url);
  return () => cluster.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection URL of the run's PostgreSQL cluster; only in the integration-postgres project. */
    postgresAdminUrl: string;
  }
}

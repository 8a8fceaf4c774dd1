import type { DatabaseHandle } from '../db/database';
import { pendingMigrations } from '../db/database';
import { pingDatabase } from '../db/database-repository';
import type { BlobStore } from '../storage/stores/blob-store';

type ReadinessCheck = 'database' | 'storage' | 'migrations';

export interface Readiness {
  ready: boolean;
  /** Each check: `ok`, or why it failed (no secrets: error codes and migration names only). */
  checks: Record<ReadinessCheck, string>;
}

/** A balancer polls this every few seconds: a hung database must answer "not ready", not hang the poll. */
const CHECK_TIMEOUT_MS = 2_000;

async function outcomeOf(check: () => Promise<string | undefined>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check().then((problem) => problem ?? 'ok'), timeout]);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? `failed (${code})` : 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance should get traffic: the database answers, the file store can take writes, and
 * the database has every migration this code expects (docs/deploy.md#8-health-and-readiness-for-the-balancer).
 */
export async function checkReadiness(deps: {
  database: DatabaseHandle;
  blobs: BlobStore;
}): Promise<Readiness> {
  const [database, storage, migrations] = await Promise.all([
    outcomeOf(async () => {
      await pingDatabase(deps.database.db);
      return undefined;
    }),
    outcomeOf(async () => {
      await deps.blobs.checkReachable();
      return undefined;
    }),
    outcomeOf(async () => {
      const pending = await pendingMigrations(deps.database);
      return pending.length > 0 ? `pending: ${pending.join(', ')}` : undefined;
    }),
  ]);
  const checks = { database, storage, migrations };
  return { ready: Object.values(checks).every((outcome) => outcome === 'ok'), checks };
}

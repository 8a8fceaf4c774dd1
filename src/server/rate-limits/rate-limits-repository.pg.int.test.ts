import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test/support/postgres-cluster';
import { openDatabase } from '../db/database';
import type { Database } from '../db/schema';
import { RateLimitCounters } from './rate-limits-repository';

const COUNTS = 100;

const quietLog = { error: () => undefined, warn: () => undefined, info: () => undefined };

/**
 * On PostgreSQL a count commits without waiting for the disk, in one statement, and the connection's next
 * transactions still wait for theirs (docs/decisions/033-list-json-and-one-sync-per-write.md). The
 * cluster is this file's own, with fsync on: the shared one of the integration run syncs nothing, so it
 * could not tell the two apart.
 */
describe('rate-limit counters on a PostgreSQL cluster with fsync on', () => {
  let cluster: PostgresCluster;
  let dataDir: string;
  /** One connection, so the WAL statistics it reports are those of the statements below. */
  let db: Kysely<Database>;

  beforeAll(async () => {
    cluster = await startPostgresCluster({ durable: true });
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-counters-'));
    const migrated = await openDatabase({ dataDir, databaseUrl: cluster.url });
    await migrated.close();
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: cluster.url, max: 1 }) }),
    });
  });
  afterAll(async () => {
    await db?.destroy();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * WAL syncs so far, cluster-wide: the connection reports its own statistics first (at the end of the
   * forcing statement), and each statement reads a fresh snapshot.
   */
  async function walSyncs(): Promise<number> {
    await sql`select pg_stat_force_next_flush()`.execute(db);
    const { rows } = await sql<{ syncs: string }>`select wal_sync as syncs from pg_stat_wal`.execute(db);
    return Number(rows[0]?.syncs);
  }

  it('commits each count without a WAL sync, and the next transactions still sync', async () => {
    const counters = new RateLimitCounters({ db, dialect: 'postgres', log: quietLog });
    const beforeCounts = await walSyncs();
    for (let index = 0; index < COUNTS; index += 1) {
      const { count } = await counters.increment(`key-${index % 4}`, 60_000);
      expect(count).toBe(Math.floor(index / 4) + 1);
    }
    const afterCounts = await walSyncs();
    // Only the WAL writer syncs the counts meanwhile, at most every 200 ms (wal_writer_delay).
    expect(afterCounts - beforeCounts).toBeLessThan(COUNTS / 2);

    // The same connection's next transactions wait for the disk again: one sync each.
    expect(
      (await sql<{ value: string }>`select current_setting('synchronous_commit') as value`.execute(db)).rows,
    ).toEqual([{ value: 'on' }]);
    for (let index = 0; index < COUNTS; index += 1) {
      await db
        .updateTable('rate_limits')
        .set({ count: sql<number>`count + 1` })
        .where('key', '=', 'key-0')
        .execute();
    }
    expect((await walSyncs()) - afterCounts).toBeGreaterThanOrEqual(COUNTS);
  });
});

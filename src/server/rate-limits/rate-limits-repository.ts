import type { Logger } from '../core/logger';
import { sql, type RawBuilder, type Kysely } from 'kysely';
import type { DialectName } from '../db/schema';
import type { Database } from '../db/schema';

/** Ended windows are deleted at most this often (per instance), so the table stays small. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Now in ms since the epoch by the database's clock, the same for every instance whatever their own
 * clocks say. Both engines keep it fixed for the length of one statement, so every use in a query agrees.
 */
const databaseNowMs: Record<DialectName, RawBuilder<number>> = {
  postgres: sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`,
  sqlite: sql<number>`cast(unixepoch('subsec') * 1000 as integer)`,
};

/**
 * A counter is no data anyone was promised, so on PostgreSQL its commit does not wait for the WAL to reach
 * the disk: the upsert, a statement of its own and so a transaction of its own, turns `synchronous_commit`
 * off for that transaction (`set_config(…, true)` lasts until the commit, which comes right after the
 * statement). Every counted write would otherwise pay a second disk sync before its own, and a
 * `begin` / `set local` / `commit` around the upsert cost three more round trips
 * (docs/decisions/033-list-json-and-one-sync-per-write.md). A crash loses at most the counts of the last
 * moments (PostgreSQL's WAL writer flushes within 200 ms by default): those windows restart a little lower.
 * On SQLite only the per-account login limit counts here, and a login waits for its password hash far
 * longer than for a sync.
 */
const commitWithoutWaitingForDisk = sql<string>`set_config('synchronous_commit', 'off', true)`;

/**
 * Fixed-window counters in the `rate_limits` table, shared by every instance on one database
 * (docs/decisions/009-shared-rate-limits.md): the shared store of @fastify/rate-limit and the per-account
 * login limit both count here.
 */
export class RateLimitCounters {
  private lastSweepAt = 0;
  private readonly now: RawBuilder<number>;

  constructor(private readonly deps: { db: Kysely<Database>; dialect: DialectName; log: Logger }) {
    this.now = databaseNowMs[deps.dialect];
  }

  /**
   * Adds one to the key's count in its running window, or starts a window at 1. One atomic upsert, one
   * statement and so one round trip: concurrent requests on any instance each get their own count. `ttl`
   * is what is left of the window (ms).
   */
  async increment(key: string, windowMs: number): Promise<{ count: number; ttl: number }> {
    const { now } = this;
    const row = await this.deps.db
      .insertInto('rate_limits')
      .values({ key, count: 1, reset_at: sql<number>`${now} + ${windowMs}` })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
          reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end`,
        }),
      )
      .returning(['count', sql<number>`reset_at - ${now}`.as('ttl')])
      .$if(this.deps.dialect === 'postgres', (query) =>
        query.returning(commitWithoutWaitingForDisk.as('synchronous_commit')),
      )
      .executeTakeFirstOrThrow();
    await this.sweepWhenDue();
    return { count: Number(row.count), ttl: Number(row.ttl) };
  }

  /** Takes one back from the key's running window (a counted attempt that turned out not to count). */
  async decrement(key: string): Promise<void> {
    await this.deps.db
      .updateTable('rate_limits')
      .set({ count: sql<number>`count - 1` })
      .where('key', '=', key)
      .where('count', '>', 0)
      .where('reset_at', '>', this.now)
      .execute();
  }

  /**
   * Awaited within a request rather than left running, so it never outlives the app's database. A failed
   * sweep only leaves ended windows for the next one.
   */
  private async sweepWhenDue(): Promise<void> {
    if (Date.now() - this.lastSweepAt < SWEEP_INTERVAL_MS) return;
    this.lastSweepAt = Date.now();
    try {
      await this.deps.db.deleteFrom('rate_limits').where('reset_at', '<=', this.now).execute();
    } catch (error) {
      this.deps.log.warn({ err: error }, 'deleting expired rate-limit counters failed');
    }
  }
}

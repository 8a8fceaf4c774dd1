import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Expired counters are deleted at most this often (per instance), so the table stays small. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Now in ms since the epoch by the database's clock, the same for every instance whatever their own
 * clocks say. `statement_timestamp()` does not move during a statement, so every use in one query agrees.
 */
const databaseNowMs = sql<number>`(extract(epoch from statement_timestamp()) * 1000)::bigint`;

export interface SharedRateLimitStoreDeps {
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}

/**
 * What the plugin really passes to a store: `new Store(options)` gets the plugin's options, `child()` the
 * route's merged options plus `routeInfo` (the route). Its typings describe neither.
 */
interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

interface SharedState extends SharedRateLimitStoreDeps {
  lastSweepAt: number;
}

/**
 * A `store` for @fastify/rate-limit that keeps the counters in the `rate_limits` table, so every
 * instance on one PostgreSQL database spends the same budget (docs/decisions/009-shared-rate-limits.md).
 * A fixed window per key, like the plugin's LocalStore and RedisStore. PostgreSQL only: the upsert reads
 * the database's clock. Errors are logged and passed to the plugin, whose `skipOnError` decides.
 */
export function createSharedRateLimitStore(deps: SharedRateLimitStoreDeps): FastifyRateLimitStoreCtor {
  const state: SharedState = { ...deps, lastSweepAt: 0 };
  return class extends SharedRateLimitStore {
    constructor(options: FastifyRateLimitOptions) {
      super(state, '', options);
    }
  };
}

class SharedRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly state: SharedState,
    /** Route part of every key (the child store's), so each route keeps its own budget. */
    private readonly prefix: string,
    options: StoreOptions,
  ) {
    // Both need the limit to restart or grow while exceeded; no route of ours uses them.
    if (options.continueExceeding || options.exponentialBackoff) {
      throw new Error(
        'The shared rate-limit store supports neither continueExceeding nor exponentialBackoff',
      );
    }
  }

  /**
   * The plugin always passes `timeWindow` (index.js `applyRateLimit`), then `max`, which a fixed window
   * does not need; its typings list neither.
   */
  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow?: number,
  ): void {
    if (timeWindow === undefined) {
      callback(new Error('The shared rate-limit store was called without a time window'));
      return;
    }
    this.count(this.prefix + key, timeWindow).then(
      (result) => callback(null, result),
      (error: unknown) => {
        this.state.log.error({ err: error }, 'shared rate-limit counter failed');
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0] & StoreOptions): FastifyRateLimitStore {
    const route = routeOptions.routeInfo ?? {};
    return new SharedRateLimitStore(
      this.state,
      `${this.prefix}${String(route.method)}${String(route.url)}-`,
      routeOptions,
    );
  }

  /** One atomic upsert: concurrent requests on any instance each get their own count. */
  private async count(key: string, timeWindow: number): Promise<{ current: number; ttl: number }> {
    const { db } = this.state;
    const row = await db
      .insertInto('rate_limits')
      .values({ key, count: 1, reset_at: sql<number>`${databaseNowMs} + ${timeWindow}` })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.reset_at <= ${databaseNowMs} then 1 else rate_limits.count + 1 end`,
          reset_at: sql<number>`case when rate_limits.reset_at <= ${databaseNowMs} then excluded.reset_at else rate_limits.reset_at end`,
        }),
      )
      .returning(['count', sql<number>`reset_at - ${databaseNowMs}`.as('ttl')])
      .executeTakeFirstOrThrow();
    await this.sweepWhenDue();
    return { current: row.count, ttl: row.ttl };
  }

  /**
   * Awaited within a request rather than left running, so it never outlives the app's database. A failed
   * sweep only leaves expired rows for the next one.
   */
  private async sweepWhenDue(): Promise<void> {
    const { state } = this;
    if (Date.now() - state.lastSweepAt < SWEEP_INTERVAL_MS) return;
    state.lastSweepAt = Date.now();
    try {
      await state.db.deleteFrom('rate_limits').where('reset_at', '<=', databaseNowMs).execute();
    } catch (error) {
      state.log.warn({ err: error }, 'deleting expired rate-limit counters failed');
    }
  }
}

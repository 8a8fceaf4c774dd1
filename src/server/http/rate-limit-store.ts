import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitCounters } from '../rate-limits/rate-limits-repository';

export interface SharedRateLimitStoreDeps {
  counters: RateLimitCounters;
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

/**
 * A `store` for @fastify/rate-limit that keeps the counters in the `rate_limits` table, so every
 * instance on one PostgreSQL database spends the same budget (docs/decisions/009-shared-rate-limits.md).
 * A fixed window per key, like the plugin's LocalStore and RedisStore. Used on PostgreSQL only (SQLite is
 * one process and counts in memory). Errors are logged and passed to the plugin, whose `skipOnError` decides.
 */
export function createSharedRateLimitStore(deps: SharedRateLimitStoreDeps): FastifyRateLimitStoreCtor {
  return class extends SharedRateLimitStore {
    constructor(options: FastifyRateLimitOptions) {
      super(deps, '', options);
    }
  };
}

class SharedRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly state: SharedRateLimitStoreDeps,
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
    this.state.counters.increment(this.prefix + key, timeWindow).then(
      ({ count, ttl }) => callback(null, { current: count, ttl }),
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
}

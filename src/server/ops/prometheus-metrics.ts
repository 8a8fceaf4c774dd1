import type { Metrics } from '../core/metrics';

interface LiveCounts {
  connectionCount: number;
  subscriptionCount: number;
}

/** Seconds; the web app's requests and the live fan-out both live in the low milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Loads prom-client only when metrics are on (it and its default collectors cost idle memory). One
 * registry per app, so two apps in one process (tests) never share series.
 */
export async function createPrometheusMetrics(live: () => LiveCounts): Promise<Metrics> {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = commonJsExports(
    await import('prom-client'),
  );
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'dojo_' });
  const requests = new Counter({
    name: 'dojo_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestSeconds = new Histogram({
    name: 'dojo_http_request_duration_seconds',
    help: 'HTTP request latency, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const fanOutSeconds = new Histogram({
    name: 'dojo_live_fanout_seconds',
    help: 'From changes reaching the live hub to the frames they cause being written',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'dojo_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route pattern',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'dojo_database_errors_total',
    help: 'Requests that failed because the database was unreachable',
    registers: [registry],
  });
  const storageErrors = new Counter({
    name: 'dojo_storage_errors_total',
    help: 'Requests that failed because file storage failed (disk full, store unreachable)',
    registers: [registry],
  });
  const quietReleases = new Counter({
    name: 'dojo_quiet_releases_total',
    help: 'Times the server, quiet for a while, dropped its caches and gave memory back to the system',
    registers: [registry],
  });
  new Gauge({
    name: 'dojo_live_sockets',
    help: 'Open live sockets on this instance',
    registers: [registry],
    collect() {
      this.set(live().connectionCount);
    },
  });
  new Gauge({
    name: 'dojo_live_subscriptions',
    help: 'Live subscriptions on this instance',
    registers: [registry],
    collect() {
      this.set(live().subscriptionCount);
    },
  });
  return {
    observeRequest({ method, route, status, seconds }) {
      requests.inc({ method, route, status: String(status) });
      requestSeconds.observe({ method, route }, seconds);
    },
    observeFanOut: (seconds) => fanOutSeconds.observe(seconds),
    countRateLimitRefusal: (route) => refusals.inc({ route }),
    countDatabaseError: () => databaseErrors.inc(),
    countStorageError: () => storageErrors.inc(),
    countQuietRelease: () => quietReleases.inc(),
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}

/**
 * prom-client is a CommonJS package: through tsx its named exports are there, but in the bundle `npm start`
 * runs, its lazily loaded chunk exports only `default` (server-bundle.int.test.ts starts that bundle).
 */
function commonJsExports<T extends object>(loaded: T): T {
  return (loaded as T & { default?: T }).default ?? loaded;
}

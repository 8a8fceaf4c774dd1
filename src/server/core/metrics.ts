/**
 * What the server reports to metrics. The app passes the Prometheus implementation
 * (src/server/ops/prometheus-metrics.ts) when metrics are on; otherwise nothing is recorded and prom-client
 * is never loaded (docs/decisions/024-operations.md).
 */
export interface Metrics {
  observeRequest(request: { method: string; route: string; status: number; seconds: number }): void;
  /** From a burst of changes reaching this instance's live hub to the last frame it caused being written. */
  observeFanOut(seconds: number): void;
  countRateLimitRefusal(route: string): void;
  countDatabaseError(): void;
  countStorageError(): void;
  /** The server was quiet long enough to drop its caches and give memory back (the quiet release). */
  countQuietRelease(): void;
  /** The Prometheus text exposition and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

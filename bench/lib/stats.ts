/** Small statistics helpers shared by every benchmark. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export const nowMs = (): number => performance.now();

/** Formats a number with a fixed count of decimals, or '—' for NaN / undefined. */
export function fmt(value: number | undefined, decimals = 1): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export const MiB = 1024 * 1024;
export const KiB = 1024;

/** A figure from its per-run values. */
export function figure(
  id: string,
  label: string,
  unit: string,
  runs: number[],
  decimals = 1,
): { id: string; label: string; unit: string; runs: number[]; median: number; decimals: number } {
  return { id, label, unit, runs, median: median(runs), decimals };
}

import { formatDistance } from 'date-fns';

/**
 * '3 hours ago'. Timestamps come from the server's clock: one slightly ahead of this device's is shown as
 * just now rather than 'in a few seconds'.
 */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  return formatDistance(Math.min(time, now), now, { addSuffix: true });
}

/** The date and time in the reader's locale (for a tooltip, or where the exact moment matters). */
export function absoluteTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

/** The date in the reader's locale, e.g. an expiry. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleDateString();
}

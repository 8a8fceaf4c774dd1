/** Now as the ISO 8601 UTC string every timestamp column holds (docs/decisions/002-data-model.md). */
export const nowIso = (): string => new Date().toISOString();

/**
 * The calendar day (YYYY-MM-DD) and hour (0-23) of `time` in the IANA zone `timeZone`. UTC, the default
 * zone, is computed without Intl: formatting with a time zone loads ICU's data, megabytes of the `node`
 * binary's pages that an idle server would otherwise keep resident (docs/decisions/030-idle-footprint-cuts.md).
 */
export function zonedDayAndHour(time: Date, timeZone: string): { day: string; hour: number } {
  if (timeZone === 'UTC') return { day: time.toISOString().slice(0, 10), hour: time.getUTCHours() };
  // en-CA formats dates as YYYY-MM-DD.
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(time);
  const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

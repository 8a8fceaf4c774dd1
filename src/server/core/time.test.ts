import { describe, expect, it } from 'vitest';
import { zonedDayAndHour } from './time';

describe('zonedDayAndHour', () => {
  it('gives UTC, computed without Intl, exactly as Intl gives it', () => {
    const intlUtc = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Etc/UTC',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    for (const text of ['2026-01-01T00:00:00Z', '2026-12-31T23:59:59Z', '2028-02-29T12:30:00Z']) {
      const time = new Date(text);
      const part = (type: string) =>
        intlUtc.formatToParts(time).find((entry) => entry.type === type)?.value ?? '';
      expect(zonedDayAndHour(time, 'UTC')).toEqual({
        day: `${part('year')}-${part('month')}-${part('day')}`,
        hour: Number(part('hour')),
      });
    }
  });

  it('gives another zone its own calendar day and hour', () => {
    // 23:30 UTC on 31 December is already 00:30 on 1 January in Paris (UTC+1 in winter).
    expect(zonedDayAndHour(new Date('2026-12-31T23:30:00Z'), 'Europe/Paris')).toEqual({
      day: '2027-01-01',
      hour: 0,
    });
  });
});

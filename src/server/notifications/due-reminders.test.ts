import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileClock, reminderDays } from './due-reminders';

describe('reminder days', () => {
  it('are calendar days in the configured time zone', () => {
    const lateEvening = new Date('2026-03-31T22:30:00Z');
    expect(reminderDays(lateEvening, 'UTC')).toEqual({
      today: '2026-03-31',
      tomorrow: '2026-04-01',
      now: '2026-03-31T22:30:00.000Z',
    });
    // Already the next day in Paris (UTC+2 in summer time).
    expect(reminderDays(lateEvening, 'Europe/Paris')).toMatchObject({
      today: '2026-04-01',
      tomorrow: '2026-04-02',
    });
    // Still the day before in New York.
    expect(reminderDays(new Date('2026-01-01T03:00:00Z'), 'America/New_York')).toMatchObject({
      today: '2025-12-31',
      tomorrow: '2026-01-01',
    });
  });

  it('roll over leap days and year ends', () => {
    expect(reminderDays(new Date('2028-02-28T12:00:00Z'), 'UTC').tomorrow).toBe('2028-02-29');
    expect(reminderDays(new Date('2026-12-31T12:00:00Z'), 'UTC').tomorrow).toBe('2027-01-01');
  });
});

describe('the test clock file', () => {
  it('reads the time written in the file on every call, and the real time without one', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'dojo-clock-'));
    try {
      const file = path.join(directory, 'now');
      const clock = fileClock(file);
      const before = Date.now();
      expect(clock().getTime()).toBeGreaterThanOrEqual(before);
      await writeFile(file, '2030-05-06T07:08:09.000Z\n');
      expect(clock().toISOString()).toBe('2030-05-06T07:08:09.000Z');
      await writeFile(file, '2030-05-07T00:00:01.000Z');
      expect(clock().toISOString()).toBe('2030-05-07T00:00:01.000Z');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { absoluteTime, formatDate, relativeTime } from './time-format';

const now = Date.parse('2026-06-15T12:00:00.000Z');

describe('relative times', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says how long ago a moment was', () => {
    expect(relativeTime('2026-06-15T09:00:00.000Z', now)).toBe('about 3 hours ago');
    expect(relativeTime('2026-06-13T12:00:00.000Z', now)).toBe('2 days ago');
  });

  it('shows a server time slightly ahead of this device’s as just now, not in the future', () => {
    expect(relativeTime('2026-06-15T12:00:05.000Z', now)).toBe(relativeTime('2026-06-15T12:00:00.000Z', now));
    expect(relativeTime('2026-06-15T12:00:05.000Z', now)).toBe('less than a minute ago');
  });

  it('is measured from the current time when none is given', () => {
    vi.useFakeTimers({ now });
    expect(relativeTime('2026-06-15T11:55:00.000Z')).toBe('5 minutes ago');
  });

  it('is empty for a timestamp that cannot be read', () => {
    expect(relativeTime('not a time', now)).toBe('');
  });
});

describe('absolute dates and times', () => {
  it('are written in the reader’s locale', () => {
    const iso = '2026-06-15T12:00:00.000Z';
    expect(absoluteTime(iso)).toBe(new Date(iso).toLocaleString());
    expect(formatDate(iso)).toBe(new Date(iso).toLocaleDateString());
  });

  it('are empty for a timestamp that cannot be read', () => {
    expect(absoluteTime('soon')).toBe('');
    expect(formatDate('')).toBe('');
  });
});

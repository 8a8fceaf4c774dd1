import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines';

describe('Deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls onDue once each deadline has passed, never before, and within the second it falls in', () => {
    const due: string[] = [];
    const deadlines = new Deadlines<string>((item) => due.push(item));
    const start = Date.now();
    deadlines.add('b', start + 2_500);
    deadlines.add('a', start + 1_200);
    deadlines.add('c', start + 2_100);

    vi.advanceTimersByTime(1_199);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(801); // 2.0 s: 'a' (due at 1.2 s) goes at the end of its second
    expect(due).toEqual(['a']);
    vi.advanceTimersByTime(1_000); // 3.0 s: 'b' and 'c' share a second
    expect(due.sort()).toEqual(['a', 'b', 'c']);
    expect(deadlines.size).toBe(0);
  });

  it('forgets a deleted item, and a deadline added again replaces the first', () => {
    const due: string[] = [];
    const deadlines = new Deadlines<string>((item) => due.push(item));
    const start = Date.now();
    deadlines.add('gone', start + 1_000);
    deadlines.add('moved', start + 1_000);
    deadlines.delete('gone');
    deadlines.add('moved', start + 5_000);
    vi.advanceTimersByTime(4_000);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(['moved']);
  });

  it('reaches a deadline beyond the longest timer in several steps', () => {
    const due: string[] = [];
    const deadlines = new Deadlines<string>((item) => due.push(item));
    const thirtyDays = 30 * 24 * 3_600_000;
    deadlines.add('late', Date.now() + thirtyDays);
    vi.advanceTimersByTime(thirtyDays - 1_000);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(['late']);
  });

  it('an earlier deadline added later is still on time; clear stops everything', () => {
    const due: string[] = [];
    const deadlines = new Deadlines<string>((item) => due.push(item));
    const start = Date.now();
    deadlines.add('later', start + 60_000);
    deadlines.add('sooner', start + 1_000);
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(['sooner']);
    deadlines.clear();
    vi.advanceTimersByTime(60_000);
    expect(due).toEqual(['sooner']);
  });
});

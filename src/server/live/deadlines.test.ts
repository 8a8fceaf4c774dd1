import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from './deadlines';

/** Deadlines that records the items it calls due; `after(ms)` lets `ms` pass and answers them. */
function recorded() {
  const due: string[] = [];
  const deadlines = new Deadlines<string>((item) => due.push(item));
  const after = (ms: number) => {
    vi.advanceTimersByTime(ms);
    return due;
  };
  return { deadlines, after };
}

describe('Deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00.000Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls onDue once each deadline has passed, never before, and within the second it falls in', () => {
    const { deadlines, after } = recorded();
    const start = Date.now();
    deadlines.add('b', start + 2_500);
    deadlines.add('a', start + 1_200);
    deadlines.add('c', start + 2_100);

    expect(after(1_199)).toEqual([]);
    expect(after(801)).toEqual(['a']); // 2.0 s: 'a' (due at 1.2 s) goes at the end of its second
    expect(after(1_000).sort()).toEqual(['a', 'b', 'c']); // 3.0 s: 'b' and 'c' share a second
    expect(deadlines.size).toBe(0);
  });

  it('forgets a deleted item, and a deadline added again replaces the first', () => {
    const { deadlines, after } = recorded();
    const start = Date.now();
    deadlines.add('gone', start + 1_000);
    deadlines.add('moved', start + 1_000);
    deadlines.delete('gone');
    deadlines.add('moved', start + 5_000);
    expect(after(4_000)).toEqual([]);
    expect(after(1_000)).toEqual(['moved']);
  });

  it('reaches a deadline beyond the longest timer in several steps', () => {
    const { deadlines, after } = recorded();
    const thirtyDays = 30 * 24 * 3_600_000;
    deadlines.add('late', Date.now() + thirtyDays);
    expect(after(thirtyDays - 1_000)).toEqual([]);
    expect(after(1_000)).toEqual(['late']);
  });

  it('an earlier deadline added later is still on time; clear stops everything', () => {
    const { deadlines, after } = recorded();
    const start = Date.now();
    deadlines.add('later', start + 60_000);
    deadlines.add('sooner', start + 1_000);
    expect(after(1_000)).toEqual(['sooner']);
    deadlines.clear();
    expect(after(60_000)).toEqual(['sooner']);
  });
});

import { describe, expect, it } from 'vitest';
import { rangeOfView, searchOfView, stepView, viewFromSearch } from './calendar-view';

describe('the calendar view in the address', () => {
  it('reads a linked view back, and falls back to this month for anything malformed', () => {
    const view = viewFromSearch(new URLSearchParams('view=week&day=2031-03-10&filter=mine'), '2026-11-27');
    expect(view).toEqual({ mode: 'week', day: '2031-03-10', filter: 'mine' });
    expect(viewFromSearch(new URLSearchParams(searchOfView(view)), '2026-11-27')).toEqual(view);
    expect(viewFromSearch(new URLSearchParams('day=2031-02-30&filter=nope'), '2026-11-27')).toEqual({
      mode: 'month',
      day: '2026-11-27',
      filter: 'all',
    });
  });

  it('steps by month (keeping the day where it exists) or by week, and ranges whole weeks', () => {
    expect(stepView({ mode: 'month', day: '2031-01-31', filter: 'all' }, 1).day).toBe('2031-02-28');
    expect(stepView({ mode: 'month', day: '2031-03-10', filter: 'all' }, -1).day).toBe('2031-02-10');
    expect(stepView({ mode: 'week', day: '2031-03-10', filter: 'all' }, 1).day).toBe('2031-03-17');
    expect(rangeOfView({ mode: 'week', day: '2031-03-12', filter: 'all' })).toEqual({
      from: '2031-03-10',
      to: '2031-03-17',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { dashboardQuery, dueStatus, localToday } from './projects';

describe('dueStatus', () => {
  it('is overdue before today, due soon from today to 7 days ahead, later after that', () => {
    expect(dueStatus('2026-11-24', '2026-11-25')).toBe('overdue');
    expect(dueStatus('2026-11-25', '2026-11-25')).toBe('due-soon');
    expect(dueStatus('2026-12-02', '2026-11-25')).toBe('due-soon');
    expect(dueStatus('2026-12-03', '2026-11-25')).toBe('later');
  });

  it('counts across month and year ends', () => {
    expect(dueStatus('2027-01-04', '2026-12-28')).toBe('due-soon');
    expect(dueStatus('2027-01-05', '2026-12-28')).toBe('later');
  });

  it("takes today from the viewer's own calendar", () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('dashboardQuery', () => {
  it('orders by due date, soonest first, and carries keyset bounds only when given', () => {
    expect(dashboardQuery('design', 'u1', 51, 'dueDate')).toEqual({
      kind: 'query',
      collection: 'projects',
      where: [{ field: 'category', op: '==', value: 'design' }],
      orderBy: { field: 'dueDate', direction: 'asc' },
      limit: 51,
    });
    expect(
      dashboardQuery('all', 'u1', 1000, 'newest', { endAt: ['2026-01-01T00:00:00.000Z', 'p1'] }),
    ).toMatchObject({
      orderBy: { field: 'createdAt', direction: 'desc' },
      endAt: ['2026-01-01T00:00:00.000Z', 'p1'],
    });
  });
});

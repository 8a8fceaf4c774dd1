import { describe, expect, it } from 'vitest';
import { LIVE_QUERY_LIMIT_MAX, type Project } from '../../../common';
import { PAGE_SIZE, pageQuery } from './project-list-query';
import { shownPages, withNextPage, type Pages } from './use-project-list';

/** `count` projects, newest first, created one minute apart, due one day apart. */
function projects(count: number, from = 0): Project[] {
  return Array.from({ length: count }, (_, index) => {
    const n = from + index;
    const person = { id: 'uid-ann', displayName: 'Ann', photoURL: '' };
    const createdAt = new Date(Date.UTC(2026, 0, 1) - n * 60_000).toISOString();
    return {
      id: `p${n}`,
      name: `Project ${n}`,
      details: '',
      dueDate: new Date(Date.UTC(2026, 5, 1) + n * 86_400_000).toISOString().slice(0, 10),
      category: 'design',
      assignedUsersList: [person],
      assignedUserIds: [person.id],
      createdBy: person,
      createdAt,
      version: 1,
      updatedAt: createdAt,
    };
  });
}

const firstPage: Pages = { listKey: 'all', bounds: [{}], standIns: [undefined] };

describe('the dashboard’s page queries', () => {
  it('asks the open page for one project more than it shows, and a closed page for all between its bounds', () => {
    expect(pageQuery('all', 'uid-ann', 'newest', {})).toMatchObject({ limit: PAGE_SIZE + 1 });
    expect(pageQuery('all', 'uid-ann', 'newest', { startAfter: ['2026-01-01', 'p1'] })).toMatchObject({
      limit: PAGE_SIZE + 1,
      startAfter: ['2026-01-01', 'p1'],
    });
    expect(pageQuery('design', 'uid-ann', 'dueDate', { endAt: ['2026-06-01', 'p1'] })).toMatchObject({
      limit: LIVE_QUERY_LIMIT_MAX,
      endAt: ['2026-06-01', 'p1'],
      where: [{ field: 'category', op: '==', value: 'design' }],
      orderBy: { field: 'dueDate', direction: 'asc' },
    });
  });
});

describe('"Show more" on the dashboard', () => {
  it('closes the open page at its last shown project and opens the next one right after it', () => {
    const received = projects(PAGE_SIZE + 1);
    const edge = received[PAGE_SIZE - 1];
    const next = withNextPage(firstPage, received, 'newest');
    expect(next.bounds).toEqual([
      { endAt: [edge?.createdAt, edge?.id] },
      { startAfter: [edge?.createdAt, edge?.id] },
    ]);
    // The closed page keeps what it showed until its own result arrives; the new one has nothing yet.
    expect(next.standIns).toEqual([received.slice(0, PAGE_SIZE), undefined]);
  });

  it('bounds the pages by the field the list is sorted by', () => {
    const received = projects(PAGE_SIZE + 1);
    const edge = received[PAGE_SIZE - 1];
    expect(withNextPage(firstPage, received, 'dueDate').bounds[1]).toEqual({
      startAfter: [edge?.dueDate, edge?.id],
    });
  });

  it('keeps the start of a page it closes, and the pages before it as they were', () => {
    const second = withNextPage(firstPage, projects(PAGE_SIZE + 1), 'newest');
    const third = withNextPage(second, projects(PAGE_SIZE + 1, PAGE_SIZE), 'newest');
    const edge = projects(1, 2 * PAGE_SIZE - 1)[0];
    expect(third.bounds).toEqual([
      second.bounds[0],
      { ...second.bounds[1], endAt: [edge?.createdAt, edge?.id] },
      { startAfter: [edge?.createdAt, edge?.id] },
    ]);
    expect(third.standIns[0]).toBe(second.standIns[0]);
  });

  it('does nothing before the open page arrived or when it holds no older project', () => {
    expect(withNextPage(firstPage, undefined, 'newest')).toBe(firstPage);
    expect(withNextPage(firstPage, projects(PAGE_SIZE), 'newest')).toBe(firstPage);
  });
});

describe('what the dashboard’s pages show together', () => {
  it('is pending until the first page arrives', () => {
    expect(shownPages([undefined])).toEqual({
      docs: null,
      firstArrived: false,
      lastPending: true,
      hasMore: false,
    });
  });

  it('shows a page of the open one, which tells by its extra project that more exist', () => {
    const received = projects(PAGE_SIZE + 1);
    const view = shownPages([received]);
    expect(view.docs).toEqual(received.slice(0, PAGE_SIZE));
    expect(view.hasMore).toBe(true);
    expect(shownPages([projects(3)])).toMatchObject({ docs: projects(3), hasMore: false });
  });

  it('shows every project of a closed page, however many came into it, then the open page', () => {
    const closed = projects(PAGE_SIZE + 5);
    const open = projects(2, PAGE_SIZE + 5);
    const view = shownPages([closed, open]);
    expect(view.docs).toEqual([...closed, ...open]);
    expect(view).toMatchObject({ firstArrived: true, lastPending: false, hasMore: false });
  });

  it('keeps the shown pages while the next one is on its way', () => {
    const closed = projects(PAGE_SIZE);
    expect(shownPages([closed, undefined])).toEqual({
      docs: closed,
      firstArrived: true,
      lastPending: true,
      hasMore: false,
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { DashboardFilter, DashboardSort, Project } from '../../../common';
import { listNews, seenList } from './use-list-announcements';

const me = 'uid-me';

function project(id: string, createdAt: string, dueDate: string, createdBy = 'uid-other'): Project {
  const person = { id: createdBy, displayName: createdBy, photoURL: '' };
  return {
    id,
    name: id,
    details: '',
    dueDate,
    category: 'design',
    assignedUsersList: [person],
    assignedUserIds: [createdBy],
    createdBy: person,
    createdAt,
    version: 1,
    updatedAt: createdAt,
  };
}

const a = project('a', '2026-01-03T00:00:00.000Z', '2026-03-01');
const b = project('b', '2026-01-02T00:00:00.000Z', '2026-03-02');
const c = project('c', '2026-01-01T00:00:00.000Z', '2026-03-03');

function shown(
  docs: Project[],
  options: { filter?: DashboardFilter; sort?: DashboardSort; hasMore?: boolean } = {},
) {
  return {
    filter: options.filter ?? 'all',
    sort: options.sort ?? 'newest',
    uid: me,
    docs,
    hasMore: options.hasMore ?? false,
  };
}

/** The news of going from `before` to `after`, as the dashboard sees the two lists one after the other. */
function newsBetween(before: ReturnType<typeof shown>, after: ReturnType<typeof shown>) {
  return listNews(seenList(before), after);
}

describe('the dashboard’s list announcements', () => {
  it('tells nothing of the list a visit opens with', () => {
    expect(listNews(null, shown([a, b, c]))).toEqual({ kind: 'none' });
  });

  it('tells nothing when only the order changed, even though the projects moved', () => {
    expect(newsBetween(shown([a, b]), shown([b, a, c], { sort: 'dueDate' }))).toEqual({ kind: 'none' });
  });

  it('tells a new filter’s result instead of what came or went', () => {
    expect(newsBetween(shown([a, b, c]), shown([b], { filter: 'design' }))).toEqual({ kind: 'filterResult' });
  });

  it('counts a project someone else added above the newest one seen', () => {
    const fresh = project('d', '2026-01-04T00:00:00.000Z', '2026-03-04');
    expect(newsBetween(shown([a, b]), shown([fresh, a, b]))).toEqual({
      kind: 'changes',
      added: 1,
      removed: 0,
    });
  });

  it('does not count a project the user made, nor older ones that "Show more" brought', () => {
    const mine = project('d', '2026-01-04T00:00:00.000Z', '2026-03-04', me);
    expect(newsBetween(shown([a, b]), shown([mine, a, b, c]))).toEqual({
      kind: 'changes',
      added: 0,
      removed: 0,
    });
  });

  it('counts a project that left the list as removed', () => {
    expect(newsBetween(shown([a, b, c]), shown([a, c]))).toEqual({ kind: 'changes', added: 0, removed: 1 });
  });

  it('does not count the project a new one pushed past the end of a full page (newest first)', () => {
    const fresh = project('d', '2026-01-04T00:00:00.000Z', '2026-03-04');
    const before = shown([a, b, c], { hasMore: true });
    expect(newsBetween(before, shown([fresh, a, b], { hasMore: true }))).toEqual({
      kind: 'changes',
      added: 1,
      removed: 0,
    });
    // Without more to follow, the list is whole: a project gone from its end was removed.
    expect(newsBetween(shown([a, b, c]), shown([fresh, a, b]))).toEqual({
      kind: 'changes',
      added: 1,
      removed: 1,
    });
  });

  it('judges "past the end" by the due date when the list is sorted by it', () => {
    const sorted = { sort: 'dueDate' as const, hasMore: true };
    const soon = project('d', '2026-01-04T00:00:00.000Z', '2026-02-01');
    // c (due last) is pushed out by a project due sooner: not removed. b, due before the last shown, is.
    expect(newsBetween(shown([a, b, c], sorted), shown([soon, a, b], sorted))).toEqual({
      kind: 'changes',
      added: 1,
      removed: 0,
    });
    expect(newsBetween(shown([a, b, c], sorted), shown([soon, a, c], sorted))).toEqual({
      kind: 'changes',
      added: 1,
      removed: 1,
    });
  });
});

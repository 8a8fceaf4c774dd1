/**
 * The projects' rules the screens use without validating anything: categories, dashboard filters and
 * their queries, calendar days. No zod here (the schemas are in project-schemas.ts): the dashboard
 * imports this module, and a first visit should not load zod (docs/benchmarks.md, first-visit JS).
 */

/** docs/product-spec.md#9-constants-and-limits: project categories, in the order the create form lists them. */
export const PROJECT_CATEGORIES = ['development', 'design', 'sales', 'marketing'] as const;
export type ProjectCategory = (typeof PROJECT_CATEGORIES)[number];

/** docs/product-spec.md#9-constants-and-limits: dashboard filters, in the order the filter bar shows them. */
export const DASHBOARD_FILTERS = ['all', 'mine', 'development', 'design', 'marketing', 'sales'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];

export const MAX_ASSIGNEES = 50;

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const match = CALENDAR_DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A due date is a calendar day, not an instant (docs/product-spec.md#flaw-5): it is stored as YYYY-MM-DD and shown
 * as that same day in every time zone. This builds the spec's 'Sat Dec 12 2026' style string.
 */
export function formatCalendarDay(value: string): string {
  const match = CALENDAR_DAY.exec(value);
  if (!match) return value;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toDateString();
}

/** The dashboard's orders: newest first (the spec's), or by due date, soonest first. */
export const DASHBOARD_SORTS = ['newest', 'dueDate'] as const;
export type DashboardSort = (typeof DASHBOARD_SORTS)[number];

const SORT_ORDER = {
  newest: { field: 'createdAt', direction: 'desc' },
  dueDate: { field: 'dueDate', direction: 'asc' },
} as const;

/** The field a dashboard order sorts by: a page's keyset bound is this field's value and the id. */
export const sortField = (sort: DashboardSort): 'createdAt' | 'dueDate' => SORT_ORDER[sort].field;

/** A keyset bound of a project list: the sort field's value and the id of one project. */
export type ProjectKey = [value: string, id: string];

/** The query clauses of a dashboard filter for the member `uid`: every view that offers the filters uses it. */
export function dashboardFilterClauses(filter: DashboardFilter, uid: string) {
  return filter === 'all'
    ? []
    : filter === 'mine'
      ? [{ field: 'assignedUserIds', op: 'array-contains' as const, value: uid }]
      : [{ field: 'category', op: '==' as const, value: filter }];
}

/**
 * The live query behind each dashboard filter: filtering runs on the server (docs/product-spec.md#flaw-15).
 * `bounds` picks a slice of the list by keyset (docs/decisions/021-project-paging.md).
 */
export function dashboardQuery(
  filter: DashboardFilter,
  uid: string,
  limit: number,
  sort: DashboardSort = 'newest',
  bounds: { startAfter?: ProjectKey | undefined; endAt?: ProjectKey | undefined } = {},
) {
  return {
    kind: 'query' as const,
    collection: 'projects' as const,
    where: dashboardFilterClauses(filter, uid),
    orderBy: SORT_ORDER[sort],
    limit,
    ...(bounds.startAfter ? { startAfter: bounds.startAfter } : {}),
    ...(bounds.endAt ? { endAt: bounds.endAt } : {}),
  };
}

/** How a due date stands today: past it, within the next 7 days, or later. */
export type DueStatus = 'overdue' | 'due-soon' | 'later';

/** Days ahead that count as 'due soon'. */
const DUE_SOON_DAYS = 7;

/** Compares calendar days (YYYY-MM-DD) as the viewer's today sees them, so every time zone agrees on its own day. */
export function dueStatus(dueDate: string, today: string): DueStatus {
  if (dueDate < today) return 'overdue';
  const [year, month, day] = today.split('-').map(Number);
  const soon = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + DUE_SOON_DAYS))
    .toISOString()
    .slice(0, 10);
  return dueDate <= soon ? 'due-soon' : 'later';
}

/** The viewer's own calendar day, YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * The live query of a project's newest comments, newest first; with `before` (a comment id), of the page
 * older than that comment, which the page follows live once loaded so edits and deletes in it show.
 */
export function projectCommentsQuery(projectId: string, limit: number, before?: string) {
  return {
    kind: 'query' as const,
    collection: 'comments' as const,
    where: [
      { field: 'projectId', op: '==' as const, value: projectId },
      ...(before === undefined ? [] : [{ field: 'before', op: '==' as const, value: before }]),
    ],
    orderBy: { field: 'createdAt', direction: 'desc' as const },
    limit,
  };
}

/**
 * The calendar's rules (docs/product-spec.md, the calendar screen; docs/decisions/067-live-calendar.md):
 * its date range, the live query of the projects due in it, and the day arithmetic the grid needs. No zod
 * here: the calendar screen imports this module by path, and the server validates with these functions.
 */
import {
  dashboardFilterClauses,
  isCalendarDay,
  type DashboardFilter,
  type ProjectCategory,
} from './projects';
import type { UserRef } from './project-schemas';

/** The longest range the calendar reads at once: a month grid is at most six weeks. */
const CALENDAR_RANGE_MAX_DAYS = 42;

/** A day written YYYY-MM-DD, as a Date at midnight UTC (day arithmetic never meets a time zone change). */
const utcDay = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** The day `days` after `day` (before it when negative), written YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const date = utcDay(day);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
const daysBetween = (from: string, to: string): number =>
  Math.round((utcDay(to).getTime() - utcDay(from).getTime()) / 86_400_000);

/** The calendar's own messages, kept out of messages.ts so the first page's bundle does not carry them. */
export const calendarMessages = {
  rangeNotDays: 'A calendar range is two days written YYYY-MM-DD.',
  rangeBackwards: 'A calendar range ends after it starts.',
  rangeTooLong: `A calendar range is at most ${CALENDAR_RANGE_MAX_DAYS} days.`,
  rangeHalf:
    'A due-date range needs both its start (dueDate >=, dueFrom) and its end (dueDate <, dueBefore).',
  moved: 'Moved.',
  moveConflict: 'Someone changed this project meanwhile; it is back where the server has it. Try again.',
  moveFailed: 'The project could not be moved; it is back where it was.',
  unknownShape: "A projects query's shape is 'calendar' or left out (whole projects).",
} as const;

/**
 * The shape of the projects a calendar query sends (`shape: 'calendar'` on a live projects query,
 * docs/decisions/076-calendar-month-display-and-speed.md): what a day cell draws and what a move needs,
 * about a sixth of a whole project. Opening a project still reads the whole one.
 */
export const CALENDAR_SHAPE = 'calendar';

/** How many assignees a calendar project carries: the avatars a day cell shows. */
export const CALENDAR_ASSIGNEES_SHOWN = 3;

// A type, not an interface: a live doc's index signature accepts it.
export type CalendarProject = {
  id: string;
  name: string;
  dueDate: string;
  category: ProjectCategory;
  /** Set on the completed projects' query ('Show completed'). */
  completed: boolean;
  /** The first CALENDAR_ASSIGNEES_SHOWN assignees, in order, as the avatars show them. */
  assignees: UserRef[];
  /** Who may move it: its creator (or an admin). */
  createdById: string;
  /** The version a move starts from: the project edit's stale-edit check. */
  version: number;
};

/** Why `[from, to)` is not a range the calendar may read, or null when it is. */
export function calendarRangeProblem(from: string, to: string): string | null {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return calendarMessages.rangeNotDays;
  const days = daysBetween(from, to);
  if (days < 1) return calendarMessages.rangeBackwards;
  if (days > CALENDAR_RANGE_MAX_DAYS) return calendarMessages.rangeTooLong;
  return null;
}

/** Open projects a calendar range may show: the live query's limit; past it, the screen says more exist. */
export const CALENDAR_PROJECT_LIMIT = 1000;

/**
 * The live query of the open projects (the completed ones with `completed`) due in `[from, to)` under a
 * dashboard filter, soonest first, in the calendar's slim shape (`CalendarProject`). The server refuses a range `calendarRangeProblem` refuses, a range with
 * only one of its two ends, and completed projects without a range.
 */
export function calendarQuery(
  filter: DashboardFilter,
  uid: string,
  from: string,
  to: string,
  { completed = false }: { completed?: boolean } = {},
) {
  return {
    kind: 'query' as const,
    collection: 'projects' as const,
    where: [
      { field: 'dueDate', op: '>=' as const, value: from },
      { field: 'dueDate', op: '<' as const, value: to },
      ...dashboardFilterClauses(filter, uid),
      ...(completed ? [{ field: 'completed', op: '==' as const, value: true }] : []),
    ],
    orderBy: { field: 'dueDate', direction: 'asc' as const },
    limit: CALENDAR_PROJECT_LIMIT,
    shape: CALENDAR_SHAPE,
  };
}

/** Monday of the week `day` falls in (weeks start on Monday, as ISO 8601 has them). */
export function weekStart(day: string): string {
  const weekday = (utcDay(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** The first day of `day`'s month. */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** The first day of the month `months` after `day`'s month. */
export function addMonths(day: string, months: number): string {
  const date = utcDay(monthStart(day));
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

/** The days a month grid shows for `day`'s month: whole weeks, Monday first, at most six. */
export function monthGridRange(day: string): { from: string; to: string } {
  const first = monthStart(day);
  const from = weekStart(first);
  const lastDay = addDays(addMonths(first, 1), -1);
  return { from, to: addDays(weekStart(lastDay), 7) };
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The weekday names, Monday first, as the grid's column headers show them. */
export const WEEKDAY_NAMES: readonly string[] = WEEKDAYS;

/** 'Tuesday, March 10, 2031': a day as the grid names it, the same in every time zone. */
export function dayName(day: string): string {
  const date = utcDay(day);
  const weekday = WEEKDAYS[(date.getUTCDay() + 6) % 7] ?? '';
  return `${weekday}, ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

/** 'March 2031'. */
export function monthName(day: string): string {
  const date = utcDay(day);
  return `${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

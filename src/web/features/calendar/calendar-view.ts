import { DASHBOARD_FILTERS, isCalendarDay, type DashboardFilter } from '../../../common';
import { addDays, addMonths, monthGridRange, monthStart, weekStart } from '../../../common/calendar';

/** What the calendar shows, all of it in the address so that a view can be linked and reloaded. */
export interface CalendarView {
  mode: 'month' | 'week';
  /** A day of the month or week shown; the grid's focus starts there. */
  day: string;
  filter: DashboardFilter;
}

const isFilter = (value: string | null): value is DashboardFilter =>
  value !== null && (DASHBOARD_FILTERS as readonly string[]).includes(value);

/** The view an address asks for; anything missing or malformed falls back to this month, all projects. */
export function viewFromSearch(search: URLSearchParams, today: string): CalendarView {
  const day = search.get('day');
  const filter = search.get('filter');
  return {
    mode: search.get('view') === 'week' ? 'week' : 'month',
    day: day !== null && isCalendarDay(day) ? day : today,
    filter: isFilter(filter) ? filter : 'all',
  };
}

/** The address query of a view (the defaults left out). */
export function searchOfView(view: CalendarView): string {
  const search = new URLSearchParams();
  if (view.mode === 'week') search.set('view', 'week');
  search.set('day', view.day);
  if (view.filter !== 'all') search.set('filter', view.filter);
  return `?${search.toString()}`;
}

/** The days the grid shows: the whole weeks of the month, or one week. */
export function rangeOfView(view: CalendarView): { from: string; to: string } {
  if (view.mode === 'week') {
    const from = weekStart(view.day);
    return { from, to: addDays(from, 7) };
  }
  return monthGridRange(view.day);
}

/** The view one step back (-1) or on (1): a month or a week. */
export function stepView(view: CalendarView, step: -1 | 1): CalendarView {
  if (view.mode === 'week') return { ...view, day: addDays(view.day, 7 * step) };
  const next = addMonths(view.day, step);
  // Keep the day of the month where the next month has it, else its last day.
  const wanted = Number(view.day.slice(8, 10));
  const last = Number(addDays(addMonths(next, 1), -1).slice(8, 10));
  return {
    ...view,
    day: `${monthStart(next).slice(0, 8)}${String(Math.min(wanted, last)).padStart(2, '0')}`,
  };
}

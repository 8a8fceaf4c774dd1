import { localToday, type LiveTarget } from '../../../common';
import { calendarQuery, type CalendarProject } from '../../../common/calendar';
import { useLiveQuery, type LiveQueryState } from '../../hooks/use-live-query';
import { preloadSubscription, subscribeLive } from '../../lib/live-preload';
import { rangeOfView, viewFromSearch } from './calendar-view';

/**
 * `useLiveQuery` for the calendar's projects, taking over the subscription `preloadCalendar` opened before
 * the page rendered: the month's snapshot is then on its way while the screen's code runs, as the
 * dashboard's first page is.
 */
export const useCalendarQuery = (target: LiveTarget | null): LiveQueryState<CalendarProject> =>
  useLiveQuery<CalendarProject>(target, subscribeLive);

/** Subscribes to the open projects of the view the address asks for, before the page has rendered. */
export function preloadCalendar(uid: string): void {
  const view = viewFromSearch(new URLSearchParams(window.location.search), localToday());
  const { from, to } = rangeOfView(view);
  preloadSubscription(calendarQuery(view.filter, uid, from, to));
}

import { localToday } from '../../../common';
import { calendarQuery } from '../../../common/calendar';
import { preloadSubscription } from '../../lib/live-preload';
import { rangeOfView, viewFromSearch } from './calendar-view';

/** Subscribes to the open projects of the view the address asks for, before the page has rendered. */
export function preloadCalendar(uid: string): void {
  const view = viewFromSearch(new URLSearchParams(window.location.search), localToday());
  const { from, to } = rangeOfView(view);
  preloadSubscription(calendarQuery(view.filter, uid, from, to));
}

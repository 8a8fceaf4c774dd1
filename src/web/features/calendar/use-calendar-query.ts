import { useEffect, useState } from 'react';
import { localToday, type LiveTarget } from '../../../common';
import { calendarQuery, type CalendarProject } from '../../../common/calendar';
import type { DojoError } from '../../../sdk';
import type { LiveQueryState } from '../../hooks/use-live-query';
import { preloadSubscription, subscribeLive } from '../../lib/live-preload';
import { rangeOfView, viewFromSearch } from './calendar-view';

interface Received {
  key: string;
  docs: CalendarProject[] | null;
  error: DojoError | null;
}

const nothing = { docs: null, error: null } as const;

/**
 * `useLiveQuery` for the calendar's projects, except that it takes over the subscription
 * `preloadCalendar` opened before the page rendered: the month's snapshot is then on its way while the
 * screen's code runs, as the dashboard's first page is.
 */
export function useCalendarQuery(target: LiveTarget | null): LiveQueryState<CalendarProject> {
  const key = target === null ? '' : JSON.stringify(target);
  const [received, setReceived] = useState<Received>({ key: '', ...nothing });

  useEffect(() => {
    if (key === '') return undefined;
    return subscribeLive<CalendarProject>(JSON.parse(key) as LiveTarget, {
      next: (docs) => setReceived({ key, docs, error: null }),
      error: (error) => setReceived({ key, docs: null, error }),
    });
  }, [key]);

  // Results of a previous target are never shown for a new one.
  const state = key !== '' && received.key === key ? received : nothing;
  return {
    docs: state.docs,
    error: state.error,
    isPending: key !== '' && state.docs === null && state.error === null,
  };
}

/** Subscribes to the open projects of the view the address asks for, before the page has rendered. */
export function preloadCalendar(uid: string): void {
  const view = viewFromSearch(new URLSearchParams(window.location.search), localToday());
  const { from, to } = rangeOfView(view);
  preloadSubscription(calendarQuery(view.filter, uid, from, to));
}

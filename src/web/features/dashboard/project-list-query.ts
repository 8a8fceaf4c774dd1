import {
  dashboardQuery,
  LIVE_QUERY_LIMIT_MAX,
  type DashboardFilter,
  type DashboardSort,
  type LiveQuery,
  type ProjectKey,
} from '../../../common';
import { preloadSubscription } from '../../lib/live-preload';

/** Projects per page; 'Show more' adds a page this size. */
export const PAGE_SIZE = 50;

/**
 * A slice of the list by keyset. The last page is open (`endAt` unset): it asks for one row more than it
 * shows, to know whether older projects exist without a count. The others are closed: they hold exactly
 * the projects between their bounds, however many come and go there (docs/decisions/021-project-paging.md).
 */
export interface PageBounds {
  startAfter?: ProjectKey | undefined;
  endAt?: ProjectKey | undefined;
}

export function pageQuery(
  filter: DashboardFilter,
  uid: string,
  sort: DashboardSort,
  bounds: PageBounds,
): LiveQuery {
  const limit = bounds.endAt ? LIVE_QUERY_LIMIT_MAX : PAGE_SIZE + 1;
  return dashboardQuery(filter, uid, limit, sort, bounds);
}

/** Subscribes to the page the dashboard opens on (all projects, newest first) before it has rendered. */
export function preloadFirstPage(uid: string): void {
  preloadSubscription(pageQuery('all', uid, 'newest', {}));
}

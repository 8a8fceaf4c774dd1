import { dashboardQuery, type DashboardFilter, type LiveQuery } from '../../../common';
import { preloadSubscription } from '../../lib/live-preload';

/** Projects per page; 'Show more' raises the live query's limit by this much. */
export const PAGE_SIZE = 50;

/**
 * The live query behind a page of the list: one row more than shown tells whether older projects exist,
 * without a count query.
 */
export function projectListQuery(filter: DashboardFilter, uid: string, limit: number): LiveQuery {
  return dashboardQuery(filter, uid, limit + 1);
}

/** Subscribes to the page the dashboard opens on (all projects, the first page) before it has rendered. */
export function preloadFirstPage(uid: string): void {
  preloadSubscription(projectListQuery('all', uid, PAGE_SIZE));
}

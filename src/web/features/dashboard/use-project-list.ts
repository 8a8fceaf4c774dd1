import { useEffect, useState } from 'react';
import type { DashboardFilter, Project } from '../../../common';
import type { DojoError } from '../../../sdk';
import { subscribeLive } from '../../lib/live-preload';
import { projectListQuery } from './project-list-query';

interface Received {
  /** Which list (filter and user) the result belongs to; a page size change keeps the same list. */
  listKey: string;
  limit: number;
  docs: Project[] | null;
  error: DojoError | null;
}

export interface ProjectListState {
  /** The projects to show, newest first; null before the first snapshot of this filter (or after an error). */
  docs: Project[] | null;
  error: DojoError | null;
  /** True until the first snapshot of this filter arrives. */
  isPending: boolean;
  /** True while a bigger page is on its way; the smaller one stays on screen meanwhile. */
  isLoadingMore: boolean;
  /** The server holds older projects than the shown page. */
  hasMore: boolean;
}

/**
 * The live project list of the dashboard. Filtering, ordering and paging run on the server
 * (docs/product-spec.md#flaw-15). Unlike `useLiveQuery`, raising the limit keeps the current list on screen until the
 * bigger snapshot arrives, so 'Show more' never blanks the page.
 */
export function useProjectList(filter: DashboardFilter, uid: string, limit: number): ProjectListState {
  const listKey = `${filter}\u0000${uid}`;
  const [received, setReceived] = useState<Received>({ listKey: '', limit: 0, docs: null, error: null });

  useEffect(
    () =>
      // The first page may have been subscribed before the dashboard rendered (preloadFirstPage).
      subscribeLive<Project>(projectListQuery(filter, uid, limit), {
        next: (docs) => setReceived({ listKey, limit, docs, error: null }),
        error: (error) => setReceived({ listKey, limit, docs: null, error }),
      }),
    [filter, uid, limit, listKey],
  );

  // A result of another filter is never shown for this one.
  const current = received.listKey === listKey ? received : null;
  const page = current?.docs ?? null;
  const docs = page ? page.slice(0, current?.limit) : null;
  const error = current?.error ?? null;
  return {
    docs,
    error,
    isPending: current === null,
    isLoadingMore: current !== null && current.limit !== limit && error === null,
    hasMore: current !== null && page !== null && page.length > current.limit,
  };
}

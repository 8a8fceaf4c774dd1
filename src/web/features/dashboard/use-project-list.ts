import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  sortField,
  type DashboardFilter,
  type DashboardSort,
  type Project,
  type ProjectKey,
} from '../../../common';
import type { DojoError } from '../../../sdk';
import { subscribeLive } from '../../lib/live-preload';
import { PAGE_SIZE, pageQuery, type PageBounds } from './project-list-query';

export interface ProjectListState {
  /** The projects to show, in order; null before the first page of this list arrived (or after an error). */
  docs: Project[] | null;
  error: DojoError | null;
  /** True until the first page of this list arrives. */
  isPending: boolean;
  /** True while the page 'Show more' asked for is on its way; what is shown stays meanwhile. */
  isLoadingMore: boolean;
  /** The server holds more projects after the shown ones. */
  hasMore: boolean;
  showMore: () => void;
}

export interface Pages {
  /** Which list (filter, user, order) the pages belong to. */
  listKey: string;
  bounds: PageBounds[];
  /** What each page showed before its bounds last changed: kept on screen until its new result arrives. */
  standIns: (Project[] | undefined)[];
}

const queryKey = (bounds: PageBounds) => JSON.stringify(bounds);

/**
 * The pages after 'Show more', given what the open (last) page last received: it closes at its last shown
 * project and a new open page starts right after it. Unchanged while the open page has not arrived or
 * shows all it holds (nothing older exists).
 */
export function withNextPage(
  pages: Pages,
  lastDocs: readonly Project[] | undefined,
  sort: DashboardSort,
): Pages {
  const lastIndex = pages.bounds.length - 1;
  const lastBounds = pages.bounds[lastIndex] ?? {};
  const edge = lastDocs?.[PAGE_SIZE - 1];
  if (!lastDocs || lastDocs.length <= PAGE_SIZE || !edge) return pages;
  const field = sortField(sort);
  const edgeKey: ProjectKey = [String(edge[field]), edge.id];
  return {
    listKey: pages.listKey,
    bounds: [...pages.bounds.slice(0, lastIndex), { ...lastBounds, endAt: edgeKey }, { startAfter: edgeKey }],
    standIns: [...pages.standIns.slice(0, lastIndex), lastDocs.slice(0, PAGE_SIZE), undefined],
  };
}

/**
 * What the pages show together, given each page's projects (its result, else its stand-in; undefined
 * while neither is there). The open page asked for one more than it shows, which only tells that more exist.
 */
export function shownPages(pageDocs: readonly (readonly Project[] | undefined)[]) {
  const last = pageDocs.at(-1);
  const firstArrived = pageDocs[0] !== undefined;
  const shown = pageDocs.map((docs, index) =>
    index === pageDocs.length - 1 ? docs?.slice(0, PAGE_SIZE) : docs,
  );
  return {
    docs: firstArrived ? shown.flatMap((page) => page ?? []) : null,
    firstArrived,
    /** The open page has neither its result nor a stand-in yet. */
    lastPending: last === undefined,
    hasMore: last !== undefined && last.length > PAGE_SIZE,
  };
}

/**
 * The live project list of the dashboard, page by page. Filtering, ordering and paging run on the server
 * (docs/product-spec.md#flaw-15). Every page is its own live query bounded by keyset, so a page deep in the
 * list costs what the first does, and projects added or removed above or inside the loaded pages land in
 * exactly one of them (docs/decisions/021-project-paging.md).
 */
export function useProjectList(filter: DashboardFilter, uid: string, sort: DashboardSort): ProjectListState {
  const listKey = `${filter}\u0000${uid}\u0000${sort}`;
  const [pages, setPages] = useState<Pages>({ listKey, bounds: [{}], standIns: [undefined] });
  const [results, setResults] = useState<Map<string, Project[]>>(new Map());
  const [error, setError] = useState<{ listKey: string; error: DojoError } | null>(null);

  const current = pages.listKey === listKey ? pages : { listKey, bounds: [{}], standIns: [undefined] };
  if (current !== pages) setPages(current);

  const keys = useMemo(() => current.bounds.map(queryKey), [current.bounds]);
  useEffect(() => {
    const unsubscribes = current.bounds.map((bounds, index) =>
      subscribeLive<Project>(pageQuery(filter, uid, sort, bounds), {
        next: (docs) =>
          setResults((previous) => {
            // Only this list's current pages are kept: results of pages left behind are dropped here.
            const wanted = new Set(keys.map((key) => `${listKey}\u0000${key}`));
            const next = new Map([...previous].filter(([key]) => wanted.has(key)));
            next.set(`${listKey}\u0000${keys[index] ?? ''}`, docs);
            return next;
          }),
        error: (failure) => setError({ listKey, error: failure }),
      }),
    );
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
    // The pages' bounds are the subscriptions; `keys` follows them one to one.
  }, [filter, uid, sort, listKey, current.bounds, keys]);

  const pageDocs = current.bounds.map(
    (_, index) => results.get(`${listKey}\u0000${keys[index] ?? ''}`) ?? current.standIns[index],
  );
  const { docs, firstArrived, lastPending, hasMore } = shownPages(pageDocs);
  const listError = error?.listKey === listKey ? error.error : null;

  const showMore = useCallback(() => {
    setPages((previous) => {
      if (previous.listKey !== listKey) return previous;
      const lastBounds = previous.bounds.at(-1) ?? {};
      return withNextPage(previous, results.get(`${listKey}\u0000${queryKey(lastBounds)}`), sort);
    });
  }, [listKey, results, sort]);

  return {
    docs: listError ? null : docs,
    error: listError,
    isPending: !firstArrived && !listError,
    isLoadingMore: firstArrived && lastPending && !listError,
    hasMore,
    showMore,
  };
}

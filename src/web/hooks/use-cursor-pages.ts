import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { errorMessage } from '../lib/error-message';

/** One page of a list the server pages with a cursor (`after`), as the SDK's list calls answer. */
export interface CursorPage<Item> {
  items: Item[];
  nextCursor: string | null;
}

interface PagesState<Item> {
  /** The query these items answer. */
  query: string;
  items: Item[] | null;
  nextCursor: string | null;
  error: string | null;
}

/** `items` and then those of `more` not among them already: an item is never shown twice. */
export function appendNew<Item extends { id: string }>(
  items: readonly Item[],
  more: readonly Item[],
): Item[] {
  const known = new Set(items.map((item) => item.id));
  return [...items, ...more.filter((item) => !known.has(item.id))];
}

interface CursorPagesOptions<Item> {
  /** What the list is filtered by (a search); a new one starts again from the first page. */
  query: string;
  /** Reads one page; `after` is null for the first. Keep it stable (a module-level function). */
  fetchPage: (query: string, after: string | null) => Promise<CursorPage<Item>>;
  /** Where the items are shown, and the selector of each item's focus target in it, in order. */
  listRef: RefObject<HTMLElement | null>;
  itemSelector: string;
}

/**
 * A list read over HTTP a page at a time, with 'Show more' (the members and Completed screens). An answer to
 * an older query or page never replaces a newer one, an item is never shown twice whatever happened between
 * two pages, and after 'Show more' focus moves to the first item it added (the button may be gone by then).
 */
export function useCursorPages<Item extends { id: string }>({
  query,
  fetchPage,
  listRef,
  itemSelector,
}: CursorPagesOptions<Item>) {
  const [state, setState] = useState<PagesState<Item>>({ query, items: null, nextCursor: null, error: null });
  const [loadingMore, setLoadingMore] = useState(false);
  // Every request takes a number; leaving the page or a newer request makes older answers stale.
  const requestRef = useRef(0);
  const focusFromRef = useRef<number | null>(null);

  useEffect(() => {
    const request = ++requestRef.current;
    fetchPage(query, null).then(
      (page) => {
        if (request !== requestRef.current) return;
        setState({ query, items: page.items, nextCursor: page.nextCursor, error: null });
      },
      (error: unknown) => {
        if (request !== requestRef.current) return;
        setState({ query, items: null, nextCursor: null, error: errorMessage(error) });
      },
    );
    return () => {
      requestRef.current += 1;
    };
  }, [query, fetchPage]);

  useEffect(() => {
    const from = focusFromRef.current;
    if (from === null || loadingMore || !state.items) return;
    focusFromRef.current = null;
    const targets = listRef.current?.querySelectorAll<HTMLElement>(itemSelector);
    if (targets && targets.length > from) targets[from]?.focus();
  }, [state.items, loadingMore, listRef, itemSelector]);

  const showMore = useCallback(() => {
    if (!state.nextCursor || !state.items || loadingMore) return;
    const request = ++requestRef.current;
    focusFromRef.current = state.items.length;
    setLoadingMore(true);
    fetchPage(state.query, state.nextCursor)
      .then(
        (page) => {
          if (request !== requestRef.current) return;
          setState((previous) => ({
            ...previous,
            items: appendNew(previous.items ?? [], page.items),
            nextCursor: page.nextCursor,
            error: null,
          }));
        },
        (error: unknown) => {
          if (request !== requestRef.current) return;
          setState((previous) => ({ ...previous, error: errorMessage(error) }));
        },
      )
      .finally(() => setLoadingMore(false));
  }, [state, loadingMore, fetchPage]);

  /** Changes the items shown (an action's result), without asking the server again. */
  const update = useCallback((change: (items: Item[]) => Item[]) => {
    setState((previous) => ({ ...previous, items: previous.items ? change(previous.items) : null }));
  }, []);

  const current = state.query === query ? state : null;
  return {
    // While a new query's first page is on its way the last items stay (no flash of 'Loading...' per keystroke).
    items: state.items,
    error: current?.error ?? null,
    isPending: current === null || (current.items === null && current.error === null),
    hasMore: Boolean(current?.nextCursor),
    loadingMore,
    showMore,
    update,
  };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { CompletedProject } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

interface CompletedState {
  projects: CompletedProject[] | null;
  nextCursor: string | null;
  error: string | null;
}

/**
 * The completed projects, the latest completion first, a page at a time (cursor paging on the server,
 * `GET /api/completed-projects`). Reopening or deleting one here takes it off the list (`remove`).
 */
export function useCompletedProjects() {
  const [state, setState] = useState<CompletedState>({ projects: null, nextCursor: null, error: null });
  const [loadingMore, setLoadingMore] = useState(false);
  // An answer that arrives after the page is gone is dropped.
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    dojo.projects.listCompleted().then(
      (page) => {
        if (mounted.current) setState({ projects: page.projects, nextCursor: page.nextCursor, error: null });
      },
      (error: unknown) => {
        if (mounted.current) setState({ projects: null, nextCursor: null, error: errorMessage(error) });
      },
    );
    return () => {
      mounted.current = false;
    };
  }, []);

  const showMore = useCallback(() => {
    if (!state.nextCursor || loadingMore) return;
    setLoadingMore(true);
    dojo.projects
      .listCompleted({ after: state.nextCursor })
      .then(
        (page) => {
          if (!mounted.current) return;
          setState((previous) => {
            // Never the same project twice, whatever happened between the two pages.
            const known = new Set((previous.projects ?? []).map((project) => project.id));
            return {
              projects: [
                ...(previous.projects ?? []),
                ...page.projects.filter((project) => !known.has(project.id)),
              ],
              nextCursor: page.nextCursor,
              error: null,
            };
          });
        },
        (error: unknown) => {
          if (mounted.current) setState((previous) => ({ ...previous, error: errorMessage(error) }));
        },
      )
      .finally(() => {
        if (mounted.current) setLoadingMore(false);
      });
  }, [state.nextCursor, loadingMore]);

  const remove = useCallback((id: string) => {
    setState((previous) => ({
      ...previous,
      projects: previous.projects?.filter((project) => project.id !== id) ?? null,
    }));
  }, []);

  return {
    projects: state.projects,
    error: state.error,
    isPending: state.projects === null && state.error === null,
    hasMore: state.nextCursor !== null,
    loadingMore,
    showMore,
    remove,
  };
}

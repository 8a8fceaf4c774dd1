import { useCallback, useEffect, useRef, useState } from 'react';
import type { Member } from '../../../common';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

interface MembersState {
  /** The search these members answer. */
  search: string;
  members: Member[] | null;
  nextCursor: string | null;
  error: string | null;
}

/**
 * Members matching `search` (by name or email, on the server), a page at a time. An answer to an older
 * search or page never replaces a newer one.
 */
export function useMembers(search: string) {
  const [state, setState] = useState<MembersState>({
    search,
    members: null,
    nextCursor: null,
    error: null,
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const requestRef = useRef(0);

  useEffect(() => {
    const request = ++requestRef.current;
    dojo.admin.listMembers({ search }).then(
      (page) => {
        if (request !== requestRef.current) return;
        setState({ search, members: page.members, nextCursor: page.nextCursor, error: null });
      },
      (error: unknown) => {
        if (request !== requestRef.current) return;
        setState({ search, members: null, nextCursor: null, error: errorMessage(error) });
      },
    );
    return () => {
      requestRef.current += 1;
    };
  }, [search]);

  const current = state.search === search ? state : null;

  const showMore = useCallback(() => {
    if (!state.nextCursor || loadingMore) return;
    const request = ++requestRef.current;
    setLoadingMore(true);
    dojo.admin
      .listMembers({ search: state.search, after: state.nextCursor })
      .then(
        (page) => {
          if (request !== requestRef.current) return;
          setState((previous) => ({
            ...previous,
            members: [...(previous.members ?? []), ...page.members],
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
  }, [state.nextCursor, state.search, loadingMore]);

  /** Shows a member as an admin action returned them. */
  const replaceMember = useCallback((member: Member) => {
    setState((previous) => ({
      ...previous,
      members: previous.members?.map((row) => (row.id === member.id ? member : row)) ?? null,
    }));
  }, []);

  return {
    // While a new search is on its way the last result stays (no flash of 'Loading...' per keystroke).
    members: current ? current.members : state.members,
    error: current?.error ?? null,
    isPending: current === null || (current.members === null && current.error === null),
    hasMore: Boolean(current?.nextCursor),
    loadingMore,
    showMore,
    replaceMember,
  };
}

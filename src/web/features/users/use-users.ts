import { useState } from 'react';
import { USERS_PAGE_SIZE, usersPanelQuery, type UserProfile } from '../../../common';
import { useLiveQuery } from '../../hooks/use-live-query';

/**
 * User profiles by display name, live (presence included), one page at a time: opening the panel costs
 * the page, not the whole team (10,000 users stay fast).
 */
export function useUsers() {
  const [limit, setLimit] = useState(USERS_PAGE_SIZE);
  // One more than shown tells whether there are more users, without a count query.
  const state = useLiveQuery<UserProfile>(usersPanelQuery(limit));
  // While a longer page loads, keep showing what we have instead of flashing the loading text.
  const [previous, setPrevious] = useState<UserProfile[] | null>(null);
  if (state.docs && state.docs !== previous) setPrevious(state.docs);
  const all = state.docs ?? (state.error ? null : previous);
  const docs = all ? all.slice(0, limit) : null;
  return {
    docs,
    limit,
    error: state.error,
    isPending: docs === null && state.error === null,
    hasMore: state.docs !== null && state.docs.length > limit,
    isLoadingMore: state.docs === null && previous !== null && state.error === null,
    showMore: () => setLimit((current) => current + USERS_PAGE_SIZE),
  };
}

import type { UserProfile } from '../../../common';
import { useLiveQuery } from '../../app/use-live-query';

/** Every user profile, by display name, live (presence included). */
export function useUsers() {
  return useLiveQuery<UserProfile>({
    kind: 'query',
    collection: 'users',
    orderBy: { field: 'displayName', direction: 'asc' },
  });
}

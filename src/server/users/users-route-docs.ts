import { UserListSchema } from '../../common';
import type { RouteDoc } from '../http/api-docs';

export const usersRouteDocs: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/users',
    tag: 'Users',
    summary: 'All user profiles (id, displayName, photoURL, online), by display name',
    auth: 'session-or-token',
    response: { status: 200, description: 'The profiles', schema: UserListSchema },
    errors: ['unauthenticated'],
  },
];

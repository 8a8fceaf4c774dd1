import { UserListSchema } from '../../common';
import { describeRoutes } from '../http/api-docs';
import { UsersQuerySchema } from './users-routes';

export const usersRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/users',
    tag: 'Users',
    summary: 'User profiles (id, displayName, photoURL, online), by display name',
    description:
      'The first `limit` profiles (default and most 1000) by display name; `search` keeps those whose name contains it, ignoring case and accents.',
    caller: 'member',
    query: UsersQuerySchema,
    response: { status: 200, description: 'The profiles', schema: UserListSchema },
  },
]);

import { messages, type LiveQuery } from '../../common';
import type { LiveSource } from '../live/live-sources';
import { refuseCursors } from '../live/matches-where';
import { invalidArgument } from '../core/app-error';
import {
  USER_PROFILE_COLUMNS,
  type UserProfileField,
  type UserProfileFilter,
  type UserProfileQuery,
} from './users-repository';
import type { UsersService } from './users-service';

const isUserField = (field: string): field is UserProfileField => Object.hasOwn(USER_PROFILE_COLUMNS, field);

/** A live query on `users` in the service's terms; a filter or order the list cannot do is a 400. */
function userQueryOf(query: LiveQuery): UserProfileQuery {
  refuseCursors(query, 'Users');
  const where = (query.where ?? []).map((clause): UserProfileFilter => {
    if (clause.field === 'displayName' && clause.op === 'contains-text') {
      return { field: 'displayName', containsText: String(clause.value) };
    }
    if (!isUserField(clause.field) || clause.op !== '==') {
      throw invalidArgument(
        { where: `Cannot filter users by ${clause.field} ${clause.op}.` },
        messages.badRequest,
      );
    }
    return {
      field: clause.field,
      equals: clause.field === 'online' ? clause.value === true : String(clause.value),
    };
  });
  const order = query.orderBy ?? { field: 'displayName', direction: 'asc' as const };
  if (!isUserField(order.field)) {
    throw invalidArgument({ orderBy: `Cannot order users by ${order.field}.` }, messages.badRequest);
  }
  return { where, orderBy: { field: order.field, direction: order.direction }, limit: query.limit };
}

/** Live reads of user profiles, through the same service as `GET /api/users`. */
export const usersLiveSource = (users: UsersService): LiveSource => ({
  authorize: (_target, viewer) => users.authorizeRead(viewer),
  resultsBelongTo: 'everyone',
  query: (query, viewer) => users.list(viewer, userQueryOf(query)),
  find: (id, viewer) => users.find(viewer, id),
});

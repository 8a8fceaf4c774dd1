import type { Kysely } from 'kysely';
import { messages, type LiveCollection, type LiveDoc, type LiveQuery } from '../../common';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/schema';
import { invalidArgument } from '../shared/app-error';
import { nameContains, selectUserProfiles, toUserProfile } from '../users/users-repository';

/**
 * What the live service can read, per collection, with the same permission rules as the HTTP API.
 * Every signed-in user may read every user profile and project (docs/product-spec.md#6-permissions), so results do not depend on
 * the viewer yet; a source whose results do must include the viewer in `groupKey`.
 */
export interface LiveSource {
  query(db: Kysely<Database>, query: LiveQuery, viewer: Viewer): Promise<LiveDoc[]>;
  get(db: Kysely<Database>, id: string, viewer: Viewer): Promise<LiveDoc | null>;
  /** Subscriptions with equal keys share one evaluation per change. */
  groupKey(target: unknown, viewer: Viewer): string;
}

const sharedGroupKey = (target: unknown): string => JSON.stringify(target);

const USER_COLUMNS = { id: 'id', displayName: 'display_name', online: 'online' } as const;
type UserField = keyof typeof USER_COLUMNS;
const isUserField = (field: string): field is UserField => Object.hasOwn(USER_COLUMNS, field);

const usersSource: LiveSource = {
  async query(db, query) {
    let select = selectUserProfiles(db);
    for (const where of query.where ?? []) {
      if (where.field === 'displayName' && where.op === 'contains-text') {
        select = select.where(nameContains(String(where.value)));
        continue;
      }
      if (!isUserField(where.field) || where.op !== '==') {
        throw invalidArgument(
          { where: `Cannot filter users by ${where.field} ${where.op}.` },
          messages.badRequest,
        );
      }
      const value = where.field === 'online' ? (where.value === true ? 1 : 0) : String(where.value);
      select = select.where(USER_COLUMNS[where.field], '=', value);
    }
    const order = query.orderBy ?? { field: 'displayName', direction: 'asc' as const };
    if (!isUserField(order.field)) {
      throw invalidArgument({ orderBy: `Cannot order users by ${order.field}.` }, messages.badRequest);
    }
    select = select.orderBy(USER_COLUMNS[order.field], order.direction).orderBy('id', order.direction);
    if (query.limit) select = select.limit(query.limit);
    return (await select.execute()).map(toUserProfile);
  },
  async get(db, id) {
    const row = await selectUserProfiles(db).where('id', '=', id).executeTakeFirst();
    return row ? toUserProfile(row) : null;
  },
  groupKey: sharedGroupKey,
};

export type LiveSources = Partial<Record<LiveCollection, LiveSource>>;

export const baseLiveSources: LiveSources = { users: usersSource };

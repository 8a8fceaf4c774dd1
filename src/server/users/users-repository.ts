import { sql, type Kysely, type Selectable } from 'kysely';
import { nameSearchKey, type UserProfile, type UserRef } from '../../common';
import type { Database, UsersTable } from '../db/schema';

export type UserRow = Selectable<UsersTable>;

export const toUserProfile = (
  row: Pick<UserRow, 'id' | 'display_name' | 'photo_url' | 'online'>,
): UserProfile => ({
  id: row.id,
  displayName: row.display_name,
  photoURL: row.photo_url,
  online: row.online === 1,
});

/** The columns a profile is made of (`toUserProfile`), ready for filters, order and limit. */
const selectUserProfiles = (db: Kysely<Database>) =>
  db.selectFrom('users').select(['id', 'display_name', 'photo_url', 'online']);

/** The profile fields a list can be filtered (==) or ordered by, and their columns. */
export const USER_PROFILE_COLUMNS = { id: 'id', displayName: 'display_name', online: 'online' } as const;
export type UserProfileField = keyof typeof USER_PROFILE_COLUMNS;

export type UserProfileFilter =
  { field: 'displayName'; containsText: string } | { field: UserProfileField; equals: string | boolean };

export interface UserProfileQuery {
  where: UserProfileFilter[];
  orderBy: { field: UserProfileField; direction: 'asc' | 'desc' };
  limit?: number | undefined;
}

/** Profiles matching every filter, in order (ties by id), at most `limit`. */
export async function listUserProfiles(
  db: Kysely<Database>,
  { where, orderBy, limit }: UserProfileQuery,
): Promise<UserProfile[]> {
  let select = selectUserProfiles(db);
  for (const filter of where) {
    if ('containsText' in filter) {
      select = select.where(nameContains(filter.containsText));
    } else {
      const value = filter.field === 'online' ? (filter.equals === true ? 1 : 0) : String(filter.equals);
      select = select.where(USER_PROFILE_COLUMNS[filter.field], '=', value);
    }
  }
  select = select
    .orderBy(USER_PROFILE_COLUMNS[orderBy.field], orderBy.direction)
    .orderBy('id', orderBy.direction);
  if (limit) select = select.limit(limit);
  return (await select.execute()).map(toUserProfile);
}

export async function findUserProfile(db: Kysely<Database>, id: string): Promise<UserProfile | null> {
  const row = await selectUserProfiles(db).where('id', '=', id).executeTakeFirst();
  return row ? toUserProfile(row) : null;
}

export const findUserByEmailKey = async (db: Kysely<Database>, emailKey: string) =>
  (await db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst()) ?? null;

/** A new account, online from the start (signup signs in). */
export async function insertUser(
  db: Kysely<Database>,
  user: {
    id: string;
    email: string;
    emailKey: string;
    passwordHash: string;
    displayName: string;
    photoURL: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: user.emailKey,
      password_hash: user.passwordHash,
      display_name: user.displayName,
      search_name: nameSearchKey(user.displayName),
      photo_url: user.photoURL,
      online: 1,
      created_at: user.now,
      updated_at: user.now,
    })
    .execute();
}

const LIKE_ESCAPE = '\\';
/** The text matched literally inside a LIKE pattern: `%`, `_` and the escape itself lose their meaning. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `${LIKE_ESCAPE}${char}`);

/** A filter on users: the display name contains `text`, ignoring case and accents (`nameSearchKey`). */
const nameContains = (text: string) =>
  sql<boolean>`search_name like ${`%${escapeLike(nameSearchKey(text))}%`} escape ${LIKE_ESCAPE}`;

/** The users among `ids` that exist, as projects show them (name and photo). */
export async function listUserRefs(db: Kysely<Database>, ids: readonly string[]): Promise<UserRef[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'display_name as displayName', 'photo_url as photoURL'])
    .where('id', 'in', ids)
    .execute();
}

import { sql, type Kysely, type Selectable } from 'kysely';
import { nameSearchKey, type UserProfile } from '../../common';
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
export const selectUserProfiles = (db: Kysely<Database>) =>
  db.selectFrom('users').select(['id', 'display_name', 'photo_url', 'online']);

export const findUserByEmailKey = (db: Kysely<Database>, emailKey: string) =>
  db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst();

export const findUserById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

const LIKE_ESCAPE = '\\';
/** The text matched literally inside a LIKE pattern: `%`, `_` and the escape itself lose their meaning. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `${LIKE_ESCAPE}${char}`);

/** A filter on users: the display name contains `text`, ignoring case and accents (`nameSearchKey`). */
export const nameContains = (text: string) =>
  sql<boolean>`search_name like ${`%${escapeLike(nameSearchKey(text))}%`} escape ${LIKE_ESCAPE}`;

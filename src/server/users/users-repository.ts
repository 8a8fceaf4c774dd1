import type { Kysely, Selectable } from 'kysely';
import type { UserProfile } from '../../common';
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

export const findUserByEmailKey = (db: Kysely<Database>, emailKey: string) =>
  db.selectFrom('users').selectAll().where('email_key', '=', emailKey).executeTakeFirst();

export const findUserById = (db: Kysely<Database>, id: string) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

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

export async function setUserOnline(
  db: Kysely<Database>,
  id: string,
  online: boolean,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ online: online ? 1 : 0, updated_at: now })
    .where('id', '=', id)
    .where('online', '=', online ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

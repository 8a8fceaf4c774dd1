import type { Kysely } from 'kysely';
import { displayNameKey, nameSearchKey } from '../../common';
import type { AccountStatus, Database } from '../db/schema';
import { inChunks } from '../projects/imported-projects-repository';

export async function existingUserIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) =>
    db.selectFrom('users').select('id').where('id', 'in', chunk).execute(),
  );
  return new Set(rows.map((row) => row.id));
}

/** The accounts that already go by these (lower-cased) emails: email key → account id. */
export async function accountsByEmailKey(
  db: Kysely<Database>,
  emailKeys: readonly string[],
): Promise<Map<string, string>> {
  const rows = await inChunks(emailKeys, (chunk) =>
    db.selectFrom('users').select(['id', 'email_key']).where('email_key', 'in', chunk).execute(),
  );
  return new Map(rows.map((row) => [row.email_key, row.id]));
}

export interface ImportedUserRow {
  id: string;
  email: string;
  passwordHash: string;
  displayName: string;
  photoURL: string;
  status: AccountStatus;
  createdAt: string;
  lastActiveAt: string | null;
  now: string;
}

/** A member made from a Firebase account: offline (presence comes from connections), a member. */
export async function insertImportedUser(db: Kysely<Database>, user: ImportedUserRow): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: user.email.toLowerCase(),
      password_hash: user.passwordHash,
      display_name: user.displayName,
      search_name: nameSearchKey(user.displayName),
      name_key: displayNameKey(user.displayName),
      photo_url: user.photoURL,
      online: 0,
      role: 'member',
      status: user.status,
      last_active_at: user.lastActiveAt,
      created_at: user.createdAt,
      updated_at: user.now,
    })
    .execute();
}

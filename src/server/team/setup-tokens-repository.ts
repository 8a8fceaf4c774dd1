import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Setup links live in `settings`, one row per link, keyed by the token's hash (several instances may start). */
const SETUP_KEY_PREFIX = 'setup_token:';

export async function insertSetupToken(db: Kysely<Database>, tokenHash: string, now: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: `${SETUP_KEY_PREFIX}${tokenHash}`, value: now })
    .execute();
}

export async function setupTokenExists(db: Kysely<Database>, tokenHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('key')
    .where('key', '=', `${SETUP_KEY_PREFIX}${tokenHash}`)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes this link and then every other one; false when this one was gone already. Of two signups
 * racing with one link, the second finds no row to delete (PostgreSQL waits for the first's commit).
 */
export async function deleteSetupTokens(db: Kysely<Database>, tokenHash: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('settings')
    .where('key', '=', `${SETUP_KEY_PREFIX}${tokenHash}`)
    .executeTakeFirst();
  await db.deleteFrom('settings').where('key', 'like', `${SETUP_KEY_PREFIX}%`).execute();
  return Number(deleted.numDeletedRows) > 0;
}

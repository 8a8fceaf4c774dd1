import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/**
 * The 32-byte secret stored under `key` in `settings`, created on first use. Insert-or-keep, then read:
 * instances starting together on one PostgreSQL all end up with the same key.
 */
export async function getOrCreateSecretKey(db: Kysely<Database>, key: string): Promise<Uint8Array> {
  await db
    .insertInto('settings')
    .values({ key, value: randomBytes(32).toString('base64url') })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

export async function findSetting(db: Kysely<Database>, key: string): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function putSetting(db: Kysely<Database>, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

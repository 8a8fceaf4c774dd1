import { sql, type Kysely } from 'kysely';
import type { ApiToken, ApiTokenScope } from '../../common/api-tokens';
import type { Database } from '../db/schema';

/**
 * Personal API tokens are `sessions` rows of kind 'api-token' (docs/decisions/062-identity-and-account-linking.md):
 * these are the queries only tokens make; finding one to sign a request in is `findLiveSession`'s job, as for
 * any session.
 */

export async function insertApiToken(
  db: Kysely<Database>,
  token: {
    tokenHash: string;
    tokenId: string;
    userId: string;
    name: string;
    scope: ApiTokenScope;
    createdAt: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: token.tokenHash,
      user_id: token.userId,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
      user_agent: '',
      last_seen_at: null,
      kind: 'api-token',
      name: token.name,
      scope: token.scope,
      token_id: token.tokenId,
    })
    .execute();
}

/** The user's tokens that have not expired, newest first. */
export async function listUserApiTokens(
  db: Kysely<Database>,
  userId: string,
  now: string,
): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('kind', '=', 'api-token')
    .where('expires_at', '>', now)
    .select(['token_id', 'name', 'scope', 'created_at', 'expires_at', 'last_seen_at'])
    .orderBy('created_at', 'desc')
    .orderBy('token_id', 'asc')
    .execute();
  return rows.map((row) => ({
    id: row.token_id ?? '',
    name: row.name ?? '',
    scope: row.scope ?? 'read',
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_seen_at,
  }));
}

export async function countUserApiTokens(db: Kysely<Database>, userId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('kind', '=', 'api-token')
    .where('expires_at', '>', now)
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Holds the user's row until the transaction ends, so two creates of one member (on any instance) count
 * their tokens one after the other and the limit holds. A no-op update: SQLite already runs one writer at a
 * time; on PostgreSQL it takes the row lock.
 */
export async function lockUserTokens(trx: Kysely<Database>, userId: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ id: sql`id` })
    .where('id', '=', userId)
    .execute();
}

/** Deletes the user's token with this public id; returns its hash, or null when there is none. */
export async function deleteUserApiToken(
  db: Kysely<Database>,
  userId: string,
  tokenId: string,
): Promise<string | null> {
  const rows = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('kind', '=', 'api-token')
    .where('token_id', '=', tokenId)
    .returning('token_hash')
    .execute();
  return rows[0]?.token_hash ?? null;
}

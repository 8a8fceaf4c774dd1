import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

export async function insertSession(
  db: Kysely<Database>,
  session: { tokenHash: string; userId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** A session that has not expired, with the user it signs in. */
export interface LiveSession {
  tokenHash: string;
  expiresAt: string;
  uid: string;
  email: string;
  displayName: string;
  photoURL: string;
}

export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<LiveSession | null> {
  const session = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.token_hash as tokenHash',
      'sessions.expires_at as expiresAt',
      'users.id as uid',
      'users.email as email',
      'users.display_name as displayName',
      'users.photo_url as photoURL',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  return session ?? null;
}

export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

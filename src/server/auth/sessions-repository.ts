import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Role } from '../../common';
import type { Theme } from '../../common/appearance';
import type { ApiTokenScope, Database, SessionKind } from '../db/schema';

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

export async function insertSession(
  db: Kysely<Database>,
  session: { tokenHash: string; userId: string; createdAt: string; expiresAt: string; userAgent: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
      user_agent: session.userAgent,
      last_seen_at: session.createdAt,
    })
    .execute();
}

/** The theme the member pinned ('system' when none, or when the row is gone). */
export async function findUserTheme(db: Kysely<Database>, userId: string): Promise<Theme> {
  const row = await db.selectFrom('users').select('theme').where('id', '=', userId).executeTakeFirst();
  return row?.theme ?? 'system';
}

/** A session that has not expired, with the user it signs in. */
export interface LiveSession {
  tokenHash: string;
  expiresAt: string;
  uid: string;
  email: string;
  displayName: string;
  photoURL: string;
  role: Role;
  /** When the session was last recorded as used (null before the first record). */
  lastSeenAt: string | null;
  /** A browser's session, or a personal API token (which a cookie or an id token never stands for). */
  kind: SessionKind;
  /** An API token's scope and public id; null for a browser session. */
  scope: ApiTokenScope | null;
  tokenId: string | null;
}

/** Sessions that have not expired: an expired row no longer signs anyone in nor lists as a device. */
const unexpiredSessions = (db: Kysely<Database>, now: string) =>
  db.selectFrom('sessions').where('sessions.expires_at', '>', now);

export async function findLiveSession(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<LiveSession | null> {
  const session = await unexpiredSessions(db, now)
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where('sessions.token_hash', '=', tokenHash)
    // A deactivated account's sessions are deleted; this also covers a session row that outlived that.
    .where('users.status', '=', 'active')
    .select([
      'sessions.token_hash as tokenHash',
      'sessions.expires_at as expiresAt',
      'users.id as uid',
      'users.email as email',
      'users.display_name as displayName',
      'users.photo_url as photoURL',
      'users.role as role',
      'sessions.last_seen_at as lastSeenAt',
      'sessions.kind as kind',
      'sessions.scope as scope',
      'sessions.token_id as tokenId',
    ])
    .executeTakeFirst();
  return session ?? null;
}

export async function deleteSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Records that the session (and so its user) was just used. */
export async function touchSession(db: Kysely<Database>, tokenHash: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('token_hash', '=', tokenHash).execute();
}

export interface SessionRow {
  tokenHash: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string | null;
}

/** The user's browser sessions that have not expired, most recently used first (API tokens list apart). */
export async function listUserSessions(
  db: Kysely<Database>,
  userId: string,
  now: string,
): Promise<SessionRow[]> {
  return unexpiredSessions(db, now)
    .where('user_id', '=', userId)
    .where('kind', '=', 'browser')
    .select([
      'token_hash as tokenHash',
      'user_agent as userAgent',
      'created_at as createdAt',
      'last_seen_at as lastSeenAt',
    ])
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/**
 * Deletes every session of the user but `keep` (none if undefined), API tokens included unless `kind`
 * names one kind; returns the hashes it deleted.
 */
export async function deleteUserSessions(
  db: Kysely<Database>,
  userId: string,
  keep?: string,
  kind?: SessionKind,
): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) query = query.where('token_hash', '!=', keep);
  if (kind !== undefined) query = query.where('kind', '=', kind);
  const rows = await query.returning('token_hash').execute();
  return rows.map((row) => row.token_hash);
}

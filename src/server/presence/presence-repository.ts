import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Both engines cap the number of bound parameters per statement: session lists go in chunks of this. */
const SESSIONS_PER_STATEMENT = 500;

/** This instance holds a socket of the session: its row is created, or refreshed to `now`. */
export async function upsertLivePresence(
  db: Kysely<Database>,
  row: { instanceId: string; sessionHash: string; userId: string; now: string },
): Promise<void> {
  await db
    .insertInto('live_presence')
    .values({
      instance_id: row.instanceId,
      session_hash: row.sessionHash,
      user_id: row.userId,
      last_seen_at: row.now,
    })
    .onConflict((conflict) =>
      conflict.columns(['instance_id', 'session_hash']).doUpdateSet({ last_seen_at: row.now }),
    )
    .execute();
}

/** Sets `last_seen_at` of this instance's rows of the given sessions. */
export async function touchLivePresence(
  db: Kysely<Database>,
  instanceId: string,
  sessionHashes: string[],
  now: string,
): Promise<void> {
  for (let start = 0; start < sessionHashes.length; start += SESSIONS_PER_STATEMENT) {
    await db
      .updateTable('live_presence')
      .set({ last_seen_at: now })
      .where('instance_id', '=', instanceId)
      .where('session_hash', 'in', sessionHashes.slice(start, start + SESSIONS_PER_STATEMENT))
      .execute();
  }
}

/** Every instance's rows of one session. */
export async function deleteLivePresenceOfSession(db: Kysely<Database>, sessionHash: string): Promise<void> {
  await db.deleteFrom('live_presence').where('session_hash', '=', sessionHash).execute();
}

/** Rows not refreshed since `before`, whatever instance wrote them. */
export async function deleteLivePresenceSeenBefore(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('live_presence').where('last_seen_at', '<', before).execute();
}

/** Whether any instance refreshed a row of the user's since `since`. */
export async function hasFreshLivePresence(
  db: Kysely<Database>,
  userId: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('live_presence')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('last_seen_at', '>=', since)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Sets the user online and touches `updated_at` (even when already online: it protects a fresh login from
 * the sweep). True when the user was offline before.
 */
export async function markUserOnline(db: Kysely<Database>, userId: string, now: string): Promise<boolean> {
  const before = await db.selectFrom('users').select('online').where('id', '=', userId).executeTakeFirst();
  await db.updateTable('users').set({ online: 1, updated_at: now }).where('id', '=', userId).execute();
  return before !== undefined && before.online !== 1;
}

/** Sets the user offline; true when they were online. */
export async function markUserOffline(db: Kysely<Database>, userId: string, now: string): Promise<boolean> {
  const changed = await db
    .updateTable('users')
    .set({ online: 0, updated_at: now })
    .where('id', '=', userId)
    .where('online', '=', 1)
    .returning('id')
    .execute();
  return changed.length > 0;
}

/**
 * Sets offline every online user not updated since `freshSince` and without a row refreshed since then;
 * returns their ids.
 */
export async function markStaleUsersOffline(
  db: Kysely<Database>,
  freshSince: string,
  now: string,
): Promise<string[]> {
  const gone = await db
    .updateTable('users')
    .set({ online: 0, updated_at: now })
    .where('online', '=', 1)
    .where('updated_at', '<', freshSince)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('live_presence')
            .select('live_presence.user_id')
            .whereRef('live_presence.user_id', '=', 'users.id')
            .where('live_presence.last_seen_at', '>=', freshSince),
        ),
      ),
    )
    .returning('id')
    .execute();
  return gone.map(({ id }) => id);
}

import type { Kysely } from 'kysely';
import type { CalendarFeedScope } from '../../common/calendar-feed';
import type { Database } from '../db/schema';

export interface CalendarFeedRow {
  userId: string;
  scope: CalendarFeedScope;
  createdAt: string;
  updatedAt: string;
}

/** The member's feed, or null while it is off. */
export async function findUserCalendarFeed(
  db: Kysely<Database>,
  userId: string,
): Promise<CalendarFeedRow | null> {
  const row = await db
    .selectFrom('calendar_feeds')
    .where('user_id', '=', userId)
    .select(['user_id', 'scope', 'created_at', 'updated_at'])
    .executeTakeFirst();
  return row ? toFeed(row) : null;
}

/**
 * The feed whose secret hashes to `tokenHash`, with its owner's display name, only while the owner is an
 * active member: a deactivated or deleted member's feed is no feed, from the moment their status changes.
 */
export async function findActiveCalendarFeedByHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<(CalendarFeedRow & { displayName: string }) | null> {
  const row = await db
    .selectFrom('calendar_feeds')
    .innerJoin('users', 'users.id', 'calendar_feeds.user_id')
    .where('calendar_feeds.token_hash', '=', tokenHash)
    .where('users.status', '=', 'active')
    .select([
      'calendar_feeds.user_id',
      'calendar_feeds.scope',
      'calendar_feeds.created_at',
      'calendar_feeds.updated_at',
      'users.display_name',
    ])
    .executeTakeFirst();
  return row ? { ...toFeed(row), displayName: row.display_name } : null;
}

/** Turns the member's feed on with a new secret, or gives it a new one (reset): the old one ends with it. */
export async function saveCalendarFeed(
  db: Kysely<Database>,
  feed: { userId: string; tokenHash: string; scope: CalendarFeedScope; now: string },
): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({
      user_id: feed.userId,
      token_hash: feed.tokenHash,
      scope: feed.scope,
      created_at: feed.now,
      updated_at: feed.now,
    })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet({
        token_hash: feed.tokenHash,
        scope: feed.scope,
        created_at: feed.now,
        updated_at: feed.now,
      }),
    )
    .execute();
}

/** Changes which projects the feed holds; false if the member has no feed. */
export async function updateCalendarFeedScope(
  db: Kysely<Database>,
  userId: string,
  scope: CalendarFeedScope,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('calendar_feeds')
    .set({ scope, updated_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Turns the member's feed off; false if it was off. */
export async function deleteCalendarFeed(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The latest change to any project, open or completed (completing and reopening stamp `updated_at`), or
 * null with none. A project leaves a feed by an edit, a completion (both stamped) or, once completed, a
 * deletion, which no feed shows anyway: so nothing a feed shows changes without this moving.
 */
export async function latestProjectChange(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.max('updated_at').as('latest'))
    .executeTakeFirst();
  return row?.latest ?? null;
}

function toFeed(row: {
  user_id: string;
  scope: CalendarFeedScope;
  created_at: string;
  updated_at: string;
}): CalendarFeedRow {
  return { userId: row.user_id, scope: row.scope, createdAt: row.created_at, updatedAt: row.updated_at };
}

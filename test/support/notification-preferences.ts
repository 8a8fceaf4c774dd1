import type { Kysely } from 'kysely';
import type { NotificationEmailMode, NotificationKind } from '../../src/common';
import type { Database } from '../../src/server/db/schema';

/**
 * Sets a member's email choice for one kind as the preferences screen stores it (a plain row; in-app stays
 * on), for tests of notification email that do not go through the preferences route.
 */
export async function setEmailPreference(
  db: Kysely<Database>,
  userId: string,
  kind: NotificationKind,
  email: NotificationEmailMode,
): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, kind, in_app: 1, email })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).doUpdateSet({ email }))
    .execute();
}

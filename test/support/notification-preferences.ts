import type { Kysely } from 'kysely';
import type { NotificationEmailMode, NotificationKind } from '../../src/common';
import type { Database } from '../../src/server/db/schema';

/** One kind's choices as the preferences screen stores them; in-app stays on unless `inApp` is false. */
export interface NotificationPreference {
  email: NotificationEmailMode;
  inApp?: boolean;
}

/**
 * Sets a member's choice for one kind as the preferences screen stores it (a plain row), for tests of
 * notifications that do not go through the preferences route.
 */
export async function setNotificationPreference(
  db: Kysely<Database>,
  userId: string,
  kind: NotificationKind,
  { email, inApp = true }: NotificationPreference,
): Promise<void> {
  const in_app = inApp ? 1 : 0;
  await db
    .insertInto('notification_preferences')
    .values({ user_id: userId, kind, in_app, email })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).doUpdateSet({ email, in_app }))
    .execute();
}

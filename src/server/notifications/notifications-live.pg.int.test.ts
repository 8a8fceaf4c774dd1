import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { unreadNotificationsCountQuery, type NotificationUnreadCount } from '../../common';
import { createProjectAs, LiveRecorder, newClient } from '../../../test/support/clients';
import { useTwoInstanceTeam } from '../../../test/support/test-team';
import type { DojoClient } from '../../sdk';
import { newId } from '../core/ids';

/**
 * Scale-out: a member's bell is live in two tabs on two instances. Actions on either instance, and rows
 * another writer (the reminder scheduler) inserts and announces on the change bus, reach both tabs.
 */
describe('notifications live across two instances', () => {
  const team = useTwoInstanceTeam({ ada: ['Ada', 'first'], bob: ['Bob', 'first'] });
  let bobElsewhere: DojoClient;

  beforeAll(async () => {
    bobElsewhere = newClient(team.instances.second.url);
    await bobElsewhere.auth.whenReady();
    await bobElsewhere.auth.logIn({ email: team.bob.email, password: team.bob.password });
  });
  afterAll(() => bobElsewhere.close());

  it("updates the member's unread count in tabs on both instances", async () => {
    const query = unreadNotificationsCountQuery(team.bob.user.uid);
    const here = new LiveRecorder<NotificationUnreadCount>(team.bob.client, query);
    const there = new LiveRecorder<NotificationUnreadCount>(bobElsewhere, query);
    const countIs = (count: number) => (docs: NotificationUnreadCount[]) => docs[0]?.count === count;
    try {
      await Promise.all([here.until(countIs(0)), there.until(countIs(0))]);

      const project = await createProjectAs(team.ada, {
        name: 'Two instances',
        details: 'one bell, two tabs',
        assignedUserIds: [team.bob.user.uid],
      });
      await Promise.all([here.until(countIs(1)), there.until(countIs(1))]);

      // The contract with other writers: insert the row, then publish { notifications, <recipient> }.
      const db = new pg.Client({ connectionString: team.instances.databaseUrl });
      await db.connect();
      try {
        await db.query(
          `insert into notifications (id, user_id, kind, project_id, dedupe_key, created_at)
           values ($1, $2, 'due_tomorrow', $3, $4, $5)`,
          [
            newId(),
            team.bob.user.uid,
            project.id,
            `due_tomorrow:${project.id}:${team.bob.user.uid}`,
            new Date().toISOString(),
          ],
        );
        await db.query(`select pg_notify('dojo_changes', $1)`, [
          JSON.stringify([{ collection: 'notifications', id: team.bob.user.uid }]),
        ]);
      } finally {
        await db.end();
      }
      await Promise.all([here.until(countIs(2)), there.until(countIs(2))]);

      await bobElsewhere.notifications.markAllRead();
      await Promise.all([here.until(countIs(0)), there.until(countIs(0))]);
    } finally {
      here.unsubscribe();
      there.unsubscribe();
    }
  });
});

import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { unreadNotificationsCountQuery, type NotificationUnreadCount } from '../../common';
import { startTwoInstances, type TwoInstances } from '../../../test/support/test-server';
import {
  createProjectAs,
  LiveRecorder,
  newClient,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import type { DojoClient } from '../../sdk';
import { newId } from '../core/ids';

/**
 * Scale-out: a member's bell is live in two tabs on two instances. Actions on either instance, and rows
 * another writer (the reminder scheduler) inserts and announces on the change bus, reach both tabs.
 */
describe('notifications live across two instances', () => {
  let instances: TwoInstances;
  let ada: SignedInClient;
  let bob: SignedInClient;
  let bobElsewhere: DojoClient;

  beforeAll(async () => {
    instances = await startTwoInstances();
    ada = await signUpClient(instances.first.url, 'Ada');
    bob = await signUpClient(instances.first.url, 'Bob');
    bobElsewhere = newClient(instances.second.url);
    await bobElsewhere.auth.whenReady();
    await bobElsewhere.auth.logIn({ email: bob.email, password: bob.password });
  });
  afterAll(async () => {
    ada.client.close();
    bob.client.close();
    bobElsewhere.close();
    await instances.stop();
  });

  it("updates the member's unread count in tabs on both instances", async () => {
    const query = unreadNotificationsCountQuery(bob.user.uid);
    const here = new LiveRecorder<NotificationUnreadCount>(bob.client, query);
    const there = new LiveRecorder<NotificationUnreadCount>(bobElsewhere, query);
    const countIs = (count: number) => (docs: NotificationUnreadCount[]) => docs[0]?.count === count;
    try {
      await Promise.all([here.until(countIs(0)), there.until(countIs(0))]);

      const project = await createProjectAs(ada, {
        name: 'Two instances',
        details: 'one bell, two tabs',
        assignedUserIds: [bob.user.uid],
      });
      await Promise.all([here.until(countIs(1)), there.until(countIs(1))]);

      // The contract with other writers: insert the row, then publish { notifications, <recipient> }.
      const db = new pg.Client({ connectionString: instances.databaseUrl });
      await db.connect();
      try {
        await db.query(
          `insert into notifications (id, user_id, kind, project_id, dedupe_key, created_at)
           values ($1, $2, 'due_tomorrow', $3, $4, $5)`,
          [
            newId(),
            bob.user.uid,
            project.id,
            `due_tomorrow:${project.id}:${bob.user.uid}`,
            new Date().toISOString(),
          ],
        );
        await db.query(`select pg_notify('dojo_changes', $1)`, [
          JSON.stringify([{ collection: 'notifications', id: bob.user.uid }]),
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

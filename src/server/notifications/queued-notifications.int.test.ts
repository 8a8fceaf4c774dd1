import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreadNotificationsCountQuery, type NotificationUnreadCount } from '../../common';
import { assignBulkMembers } from '../../../test/support/bulk-users';
import {
  createProjectAs,
  LiveRecorder,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { pollUntil } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import type { DatabaseHandle } from '../db/database';
import { insertNotificationJob } from './notifications-repository';
import { INLINE_RECIPIENTS_MAX, type NotificationDraft } from './notifications-service';

let server: TestServer;
let database: DatabaseHandle;
let ada: SignedInClient;
let bob: SignedInClient;

beforeAll(async () => {
  server = await startTestServer({ configOverrides: { notificationJobSweepMs: 3_600_000 } });
  database = await openServerDatabase(server);
  ada = await signUpClient(server.url, 'Ada');
  bob = await signUpClient(server.url, 'Bob');
});
afterAll(async () => {
  ada?.client.close();
  bob?.client.close();
  await database?.close();
  await server?.stop();
});

/** Notifications per recipient of one comment: any count other than 1 is a duplicate. */
async function notificationsPerRecipient(commentId: string): Promise<Map<string, number>> {
  const rows = await database.db
    .selectFrom('notifications')
    .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('comment_id', '=', commentId)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
}

async function queuedJobs(): Promise<number> {
  const row = await database.db
    .selectFrom('notification_jobs')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function projectWithCrowd(name: string, crowd: number): Promise<{ id: string; crowdIds: string[] }> {
  const project = await createProjectAs(ada, {
    name,
    details: 'More people than a transaction should write to.',
    category: 'development',
    assignedUserIds: [bob.user.uid],
  });
  const crowdIds = await assignBulkMembers(server, { projectId: project.id, count: crowd });
  return { id: project.id, crowdIds };
}

describe('an action that tells more people than it writes inline', () => {
  it('is answered first; then every member is told exactly once, live, and the job is gone', async () => {
    const { id, crowdIds } = await projectWithCrowd('A crowd', INLINE_RECIPIENTS_MAX + 50);
    const bell = new LiveRecorder<NotificationUnreadCount>(
      bob.client,
      unreadNotificationsCountQuery(bob.user.uid),
    );
    const before = (await bell.until(() => true))[0]?.count ?? 0;

    const comment = await ada.client.projects.addComment(id, { content: 'Hello, all of you.' });

    await bell.until(
      (docs) => (docs[0]?.count ?? 0) === before + 1,
      10_000,
      "Bob's bell counting the comment",
    );
    bell.unsubscribe();
    // The whole job commits at once: Bob told means everyone is.
    const told = await notificationsPerRecipient(comment.id);
    expect([...told.keys()].sort()).toEqual([bob.user.uid, ...crowdIds].sort());
    expect([...told.values()].every((count) => count === 1)).toBe(true);
    expect(told.has(ada.user.uid)).toBe(false);
    expect(await queuedJobs()).toBe(0);
    const [newest] = (await bob.client.notifications.page({ limit: 1 })).notifications;
    expect(newest).toMatchObject({ kind: 'commented', projectId: id, commentId: comment.id });
  });

  it('a job its instance never ran (it stopped first) is run when a server starts', async () => {
    const { id, crowdIds } = await projectWithCrowd('Left behind', INLINE_RECIPIENTS_MAX + 1);
    const comment = await ada.client.projects.addComment(id, { content: 'Written before the stop.' });
    await pollUntil(
      async () => (await queuedJobs()) === 0,
      10_000,
      () => 'the comment’s job never ran',
    );
    // What an instance that stopped between an action's commit and its job leaves: the job, queued. This
    // server does not know of it and sweeps only hourly, so only a start runs it.
    const drafts: NotificationDraft[] = [
      {
        kind: 'mentioned',
        recipientIds: [bob.user.uid, ...crowdIds],
        projectId: id,
        commentId: comment.id,
        actorId: ada.user.uid,
      },
    ];
    await insertNotificationJob(database.db, {
      drafts: JSON.stringify(drafts),
      createdAt: new Date().toISOString(),
    });
    expect(await queuedJobs()).toBe(1);

    await server.restart();

    await pollUntil(
      async () => (await queuedJobs()) === 0,
      10_000,
      () => 'the queued job never ran',
    );
    const told = await notificationsPerRecipient(comment.id);
    // 'commented' from the comment's own job, 'mentioned' from the one left behind: one each.
    expect(told.size).toBe(crowdIds.length + 1);
    expect([...told.values()].every((count) => count === 2)).toBe(true);
    // Newest first; the restart also reminds Bob that the projects are due tomorrow.
    const kinds = (await bob.client.notifications.page({ limit: 20 })).notifications
      .filter((notification) => notification.commentId === comment.id)
      .map((notification) => notification.kind);
    expect(kinds).toEqual(['mentioned', 'commented']);
  });
});

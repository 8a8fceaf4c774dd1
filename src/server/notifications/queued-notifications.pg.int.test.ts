import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignBulkMembers } from '../../../test/support/bulk-users';
import { createProjectAs, type SignedInClient, signUpClient } from '../../../test/support/clients';
import { pollUntil } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTwoInstances, type TwoInstances } from '../../../test/support/test-server';
import type { DatabaseHandle } from '../db/database';
import { insertNotificationJob } from './notifications-repository';
import { INLINE_RECIPIENTS_MAX, type NotificationDraft } from './notifications-service';

const JOBS = 30;

let instances: TwoInstances;
let database: DatabaseHandle;
let ada: SignedInClient;

beforeAll(async () => {
  // Both instances sweep the queue every 20 ms, so they race for every job.
  instances = await startTwoInstances({ notificationJobSweepMs: 20 });
  database = await openServerDatabase(instances.first);
  ada = await signUpClient(instances.first.url, 'Ada');
});
afterAll(async () => {
  ada?.client.close();
  await database?.close();
  await instances?.stop();
});

describe('queued notifications on two instances', () => {
  it('writes each queued job exactly once while both instances take jobs', async () => {
    const project = await createProjectAs(ada, {
      name: 'Raced for',
      details: 'Two instances, one queue.',
      category: 'development',
    });
    const crowd = await assignBulkMembers(instances.first, {
      projectId: project.id,
      count: INLINE_RECIPIENTS_MAX + 1,
    });
    // As actions on either instance leave them: jobs both instances see at their next sweep.
    await database.db.transaction().execute(async (trx) => {
      for (let n = 0; n < JOBS; n += 1) {
        const drafts: NotificationDraft[] = [
          {
            kind: 'mentioned',
            recipientIds: crowd,
            projectId: project.id,
            commentId: `c-${n}`,
            actorId: ada.user.uid,
          },
        ];
        await insertNotificationJob(trx, {
          drafts: JSON.stringify(drafts),
          createdAt: new Date().toISOString(),
        });
      }
    });

    await pollUntil(
      async () => {
        const row = await database.db
          .selectFrom('notification_jobs')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow();
        return Number(row.count) === 0;
      },
      20_000,
      () => 'the queued jobs were not all taken',
    );
    const rows = await database.db
      .selectFrom('notifications')
      .select(['comment_id', 'user_id', (eb) => eb.fn.countAll<string>().as('count')])
      .where('project_id', '=', project.id)
      .groupBy(['comment_id', 'user_id'])
      .execute();
    expect(rows).toHaveLength(JOBS * crowd.length);
    expect(rows.filter((row) => Number(row.count) !== 1)).toEqual([]);
  });
});

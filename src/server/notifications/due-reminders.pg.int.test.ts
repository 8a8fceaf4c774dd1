import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tomorrow, type SignedInClient } from '../../../test/support/clients';
import {
  beforeAnythingIsDue,
  dayAt,
  projectDueOn,
  useNotificationInstances,
} from '../../../test/support/notification-setup';
import { pollUntil } from '../../../test/support/poll';

/** Listens where the instances' change bus publishes (NOTIFY on PostgreSQL), as a third instance would. */
let busListener: pg.Client;
const notifiedUsers = new Set<string>();
let users: SignedInClient[];
const dueDate = tomorrow();
const input = (name: string, assignedUserIds: string[]) => projectDueOn(dueDate, name, assignedUserIds);
const setup = useNotificationInstances({
  clockAt: beforeAnythingIsDue(dueDate),
  // Both instances read the same clock and tick every 20 ms, so their ticks overlap.
  config: { dueReminderIntervalMs: 20 },
  members: [0, 1, 2, 3].map((index) => ({ name: `Member ${index}` })),
});

/** Reminders per (kind, project, user): any count other than 1 is a duplicate. */
async function reminderCounts(): Promise<Map<string, number>> {
  const rows = await setup.database.db
    .selectFrom('notifications')
    .select(['kind', 'project_id', 'user_id'])
    .select((eb) => eb.fn.countAll<string>().as('count'))
    // Actions notify too (the assignments that made the projects); only the scheduler's reminders count.
    .where('kind', 'in', ['due_tomorrow', 'overdue'])
    .groupBy(['kind', 'project_id', 'user_id'])
    .execute();
  return new Map(rows.map((row) => [`${row.kind}:${row.project_id}:${row.user_id}`, Number(row.count)]));
}

beforeAll(async () => {
  users = setup.members;
  busListener = new pg.Client({ connectionString: setup.instances.databaseUrl });
  await busListener.connect();
  busListener.on('notification', (message) => {
    for (const change of JSON.parse(message.payload ?? '[]') as { collection: string; id: string }[]) {
      if (change.collection === 'notifications') notifiedUsers.add(change.id);
    }
  });
  await busListener.query('listen dojo_changes');
});
afterAll(async () => {
  await busListener?.end();
});

describe('due reminders on two instances', () => {
  it('creates exactly one reminder per project, user and kind, also after both restart', async () => {
    const [first, second, third, fourth] = users as [
      SignedInClient,
      SignedInClient,
      SignedInClient,
      SignedInClient,
    ];
    const uids = users.map((user) => user.user.uid);
    const projects = [
      await first.client.projects.create(input('Alpha', [second.user.uid, third.user.uid])),
      await second.client.projects.create(input('Beta', uids)),
      await fourth.client.projects.create(input('Gamma', [first.user.uid])),
    ];
    // Recipients: creator and assignees, once each (Beta's creator is also assigned).
    const expected = [
      ...[first, second, third].map((user) => `${projects[0]!.id}:${user.user.uid}`),
      ...uids.map((uid) => `${projects[1]!.id}:${uid}`),
      ...[fourth, first].map((user) => `${projects[2]!.id}:${user.user.uid}`),
    ];
    const expectedKeys = (kinds: string[]) =>
      kinds.flatMap((kind) => expected.map((key) => `${kind}:${key}`)).sort();

    await setup.setClock(dayAt(dueDate, -1, '00:00:01'));
    await pollUntil(
      async () => (await reminderCounts()).size === expected.length,
      15_000,
      () => 'the due-tomorrow reminders did not all appear',
    );
    // Every recipient's bell hears of it: the scheduler published their change after inserting.
    await pollUntil(
      () => uids.every((uid) => notifiedUsers.has(uid)),
      15_000,
      () => `no live change for ${uids.filter((uid) => !notifiedUsers.has(uid)).join(', ')}`,
    );

    await setup.setClock(dayAt(dueDate, 1, '00:00:01'));
    await pollUntil(
      async () => (await reminderCounts()).size === 2 * expected.length,
      15_000,
      () => 'the overdue reminders did not all appear',
    );
    let counts = await reminderCounts();
    expect([...counts.keys()].sort()).toEqual(expectedKeys(['due_tomorrow', 'overdue']));
    expect([...counts.values()].every((count) => count === 1)).toBe(true);

    await setup.instances.first.restart();
    await setup.instances.second.restart();
    // Projects created after the restarts are overdue at once: their reminders prove that the restarted
    // instances ticked again over the earlier reminders.
    const after = [
      await third.client.projects.create(input('After A', [first.user.uid])),
      await fourth.client.projects.create(input('After B', [first.user.uid])),
    ];
    await pollUntil(
      async () => {
        const now = await reminderCounts();
        return after.every((project) => [...now.keys()].some((key) => key.includes(project.id)));
      },
      15_000,
      () => 'the restarted instances created no reminders',
    );
    counts = await reminderCounts();
    // Each later project: 'overdue' for its creator and its assignee.
    expect(counts.size).toBe(2 * expected.length + 2 * after.length);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });
});

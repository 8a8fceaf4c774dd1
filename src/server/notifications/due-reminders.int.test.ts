import { describe, expect, it } from 'vitest';
import { tomorrow } from '../../../test/support/clients';
import {
  beforeAnythingIsDue,
  dayAt,
  projectDueOn,
  useNotificationServer,
} from '../../../test/support/notification-setup';
import { pollUntil } from '../../../test/support/poll';

const dueDate = tomorrow();

const setup = useNotificationServer(
  {
    clockAt: beforeAnythingIsDue(dueDate),
    config: { dueReminderIntervalMs: 50 },
    members: [
      { name: 'Creator' },
      { name: 'Assignee' },
      // Opted out of 'due tomorrow' in the app (the default is on); 'overdue' keeps the default.
      { name: 'Opted out', preferences: { due_tomorrow: { inApp: false, email: 'off' } } },
    ],
  },
  ['creator', 'assignee', 'optedOut'],
);
const input = (name: string, assignedUserIds: string[]) => projectDueOn(dueDate, name, assignedUserIds);

async function remindersOf(projectId: string) {
  return (
    setup.database.db
      .selectFrom('notifications')
      .select(['user_id', 'kind', 'dedupe_key', 'actor_id'])
      .where('project_id', '=', projectId)
      // Actions notify too (the assignment that made the project); only the scheduler's reminders count here.
      .where('kind', 'in', ['due_tomorrow', 'overdue'])
      .orderBy('kind')
      .orderBy('user_id')
      .execute()
  );
}

describe('due reminders on one instance', () => {
  it('reminds creator and assignees once when the day before the due date starts, then once when overdue, across a restart', async () => {
    const project = await setup.creator.client.projects.create(
      input('Due tomorrow', [setup.assignee.user.uid, setup.optedOut.user.uid]),
    );
    const completed = await setup.creator.client.projects.create(
      input('Done early', [setup.assignee.user.uid]),
    );
    await setup.creator.client.projects.complete(completed.id);
    const uids = [setup.creator.user.uid, setup.assignee.user.uid].sort();

    // Past midnight: the due date is tomorrow.
    await setup.setClock(dayAt(dueDate, -1, '00:00:01'));
    await pollUntil(
      async () => (await remindersOf(project.id)).length === 2,
      10_000,
      () => 'no due-tomorrow reminders after the clock passed midnight',
    );
    // The opted-out member and the completed project got none; the others one each.
    const dueTomorrow = await remindersOf(project.id);
    expect(dueTomorrow.map((row) => [row.kind, row.user_id])).toEqual(
      uids.map((uid) => ['due_tomorrow', uid]),
    );
    expect(dueTomorrow.every((row) => row.actor_id === null)).toBe(true);
    expect(dueTomorrow.map((row) => row.dedupe_key)).toEqual(
      uids.map((uid) => `due_tomorrow:${project.id}:${uid}:${dueDate}`),
    );

    // The due date has passed: overdue for all three (the opt-out was for 'due tomorrow' only).
    await setup.setClock(dayAt(dueDate, 1, '00:00:01'));
    await pollUntil(
      async () => (await remindersOf(project.id)).filter((row) => row.kind === 'overdue').length === 3,
      10_000,
      () => 'no overdue reminders after the due date passed',
    );

    await setup.server.restart();
    // A project created after the restart is overdue at once: its reminder proves the new process ticked.
    const later = await setup.creator.client.projects.create(
      input('After the restart', [setup.assignee.user.uid]),
    );
    await pollUntil(
      async () => (await remindersOf(later.id)).length === 2,
      10_000,
      () => 'the restarted server created no reminders',
    );

    const all = await remindersOf(project.id);
    expect(all.map((row) => [row.kind, row.user_id])).toEqual([
      ...uids.map((uid) => ['due_tomorrow', uid]),
      ...[setup.creator.user.uid, setup.assignee.user.uid, setup.optedOut.user.uid]
        .sort()
        .map((uid) => ['overdue', uid]),
    ]);
    expect(await remindersOf(completed.id)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { tomorrow } from '../../../test/support/clients';
import {
  beforeAnythingIsDue,
  dayAt,
  projectDueOn,
  useNotificationInstances,
} from '../../../test/support/notification-setup';
import { pollUntil } from '../../../test/support/poll';

const dueDate = tomorrow();
const input = (name: string, assignedUserIds: string[]) => projectDueOn(dueDate, name, assignedUserIds);

const setup = useNotificationInstances({
  clockAt: beforeAnythingIsDue(dueDate),
  // Email is not configured at first: the reminders are created while no instance can send them. The
  // safety sweep stays at its one-minute default, so only the start and the change bus wake the sender.
  config: { dueReminderIntervalMs: 20, publicUrl: 'http://dojo.test' },
  members: [0, 1, 2, 3].map((index) => ({
    name: `Member ${index}`,
    preferences: { due_tomorrow: { email: 'immediate' }, overdue: { email: 'immediate' } },
  })),
});

/** Messages received per `recipient subject`: any count other than 1 is a duplicate. */
function mailCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of setup.inbox.messages) {
    const to = [mail.to ?? []]
      .flat()
      .map((address) => address.text)
      .join(',');
    const key = `${to} ${mail.subject ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

describe('notification email on two instances', () => {
  it('mails each notification exactly once, including those created before a restart', async () => {
    const { instances, inbox, database, members: users } = setup;
    const uids = users.map((user) => user.user.uid);
    const projects = [
      await users[0]!.client.projects.create(input('Alpha', uids)),
      await users[1]!.client.projects.create(input('Beta', uids)),
      await users[2]!.client.projects.create(input('Gamma', uids.slice(0, 2))),
    ];
    const recipients = [4, 4, 3];
    const total = recipients.reduce((sum, count) => sum + count, 0);
    const countReminders = async (kind: string) =>
      Number(
        (
          await database.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<string>().as('count'))
            .where('kind', '=', kind)
            .executeTakeFirstOrThrow()
        ).count,
      );

    await setup.setClock(dayAt(dueDate, -1, '00:00:01'));
    await pollUntil(
      async () => (await countReminders('due_tomorrow')) === total,
      15_000,
      () => 'the due-tomorrow reminders were not all created',
    );
    expect(inbox.messages).toHaveLength(0);

    // Both instances restart with email configured: nothing created before is lost.
    for (const instance of [instances.first, instances.second]) {
      instance.config.smtpUrl = inbox.url;
      await instance.restart();
    }
    await pollUntil(
      () => inbox.messages.length >= total,
      15_000,
      () => `${inbox.messages.length} of ${total} due-tomorrow emails after the restart`,
    );

    // Both running: the overdue reminders wake them through the change bus, and each goes out once.
    await setup.setClock(dayAt(dueDate, 1, '00:00:01'));
    await pollUntil(
      () => inbox.messages.length >= 2 * total,
      15_000,
      () => `${inbox.messages.length} of ${2 * total} emails after the due date passed`,
    );
    // Every outbox row ends marked sent (after its SMTP answer, so poll for the last one).
    const pendingCount = async () =>
      (
        await database.db
          .selectFrom('notification_emails')
          .select('notification_id')
          .where('sent_at', 'is', null)
          .execute()
      ).length;
    await pollUntil(
      async () => (await pendingCount()) === 0,
      15_000,
      () => 'some outbox rows were never marked sent',
    );
    const counts = mailCounts();
    expect(counts.size).toBe(2 * total);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    for (const project of projects) {
      expect(
        [...counts.keys()].filter((key) => key.endsWith(` ${project.name} is due tomorrow`)),
      ).toHaveLength(recipients[projects.indexOf(project)]!);
    }
  });
});

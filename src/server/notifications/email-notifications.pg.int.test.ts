import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateProjectInput } from '../../common';
import { signUpClient, tomorrow, type SignedInClient } from '../../../test/support/clients';
import { setEmailPreference } from '../../../test/support/notification-preferences';
import { pollUntil } from '../../../test/support/poll';
import { SmtpInbox } from '../../../test/support/smtp-inbox';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTwoInstances, type TwoInstances } from '../../../test/support/test-server';
import type { DatabaseHandle } from '../db/database';

const at = (day: string, offset: number, time: string): string => {
  const date = new Date(`${day}T${time}Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString();
};

let clockDir: string;
let clockFile: string;
let inbox: SmtpInbox;
let instances: TwoInstances;
let database: DatabaseHandle;
const users: SignedInClient[] = [];
const dueDate = tomorrow();
/** Written whole then renamed: a server reading the clock mid-write would otherwise see real time. */
const setClock = async (iso: string) => {
  await writeFile(`${clockFile}.next`, iso);
  await rename(`${clockFile}.next`, clockFile);
};

const input = (name: string, assignedUserIds: string[]): CreateProjectInput => ({
  name,
  details: 'Due soon',
  dueDate,
  category: 'development',
  assignedUserIds,
});

/** Messages received per `recipient subject`: any count other than 1 is a duplicate. */
function mailCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of inbox.messages) {
    const to = [mail.to ?? []]
      .flat()
      .map((address) => address.text)
      .join(',');
    const key = `${to} ${mail.subject ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

beforeAll(async () => {
  clockDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-clock-'));
  clockFile = path.join(clockDir, 'now');
  await setClock(at(dueDate, -2, '23:59:59'));
  inbox = await SmtpInbox.start();
  // Email is not configured at first: the reminders are created while no instance can send them. The
  // safety sweep stays at its one-minute default, so only the start and the change bus wake the sender.
  instances = await startTwoInstances({ testClockFile: clockFile, dueReminderIntervalMs: 20 });
  database = await openServerDatabase(instances.first);
  await signUpClient(instances.first.url, 'Admin');
  for (let index = 0; index < 4; index++) {
    const user = await signUpClient(
      index % 2 ? instances.second.url : instances.first.url,
      `Member ${index}`,
    );
    users.push(user);
    await setEmailPreference(database.db, user.user.uid, 'due_tomorrow', 'immediate');
    await setEmailPreference(database.db, user.user.uid, 'overdue', 'immediate');
  }
});
afterAll(async () => {
  for (const user of users) user.client.close();
  await database?.close();
  await instances?.stop();
  await inbox?.stop();
  await rm(clockDir, { recursive: true, force: true });
});

describe('notification email on two instances', () => {
  it('mails each notification exactly once, including those created before a restart', async () => {
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

    await setClock(at(dueDate, -1, '00:00:01'));
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
    await setClock(at(dueDate, 1, '00:00:01'));
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

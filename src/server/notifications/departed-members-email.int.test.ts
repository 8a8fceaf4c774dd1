import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { tomorrow } from '../../../test/support/clients';
import { setNotificationPreference } from '../../../test/support/notification-preferences';
import {
  beforeAnythingIsDue,
  dayAt,
  projectDueOn,
  useNotificationServer,
} from '../../../test/support/notification-setup';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';

// docs/decisions/046-members-who-leave.md: a deactivated or deleted account gets no email, and what was
// queued for it is dropped, also for a member who is reactivated before it would have gone.

const dueDate = tomorrow();

const setup = useNotificationServer(
  {
    clockAt: beforeAnythingIsDue(dueDate),
    emailFromStart: true,
    config: {
      publicUrl: 'http://dojo.test',
      dueReminderIntervalMs: 50,
      notificationEmailIntervalMs: 50,
      digestHour: 8,
      notificationTimeZone: 'UTC',
    },
    members: [
      {
        name: 'Departing',
        preferences: { due_tomorrow: { email: 'immediate' }, commented: { email: 'digest' } },
      },
      {
        name: 'Leaving',
        preferences: { due_tomorrow: { email: 'immediate' }, commented: { email: 'digest' } },
      },
      {
        // No reminders at all, so that whatever reaches them after they are back comes from before.
        name: 'Returning',
        preferences: {
          due_tomorrow: { email: 'off', inApp: false },
          overdue: { email: 'off', inApp: false },
          commented: { email: 'digest' },
        },
      },
      {
        name: 'Control',
        preferences: { due_tomorrow: { email: 'immediate' }, commented: { email: 'digest' } },
      },
    ],
  },
  ['departing', 'leaving', 'returning', 'control'],
);

const mailsTo = (address: string): ParsedMail[] =>
  setup.inbox.messages.filter((mail) =>
    [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)),
  );

async function mailTo(address: string, subject: (subject: string) => boolean): Promise<ParsedMail> {
  await pollUntil(
    () => mailsTo(address).some((mail) => subject(mail.subject ?? '')),
    WAIT_MS,
    () => `no such mail to ${address}; got ${JSON.stringify(mailsTo(address).map((mail) => mail.subject))}`,
  );
  return mailsTo(address).find((mail) => subject(mail.subject ?? ''))!;
}

/** Unsent outbox rows of one member. */
const queuedFor = async (userId: string): Promise<number> =>
  (
    await setup.database.db
      .selectFrom('notification_emails')
      .select('notification_id')
      .where('user_id', '=', userId)
      .where('sent_at', 'is', null)
      .execute()
  ).length;

describe('members who leave', () => {
  it('mails a deactivated, a deleted and a reactivated member nothing from before, while a control member gets theirs', async () => {
    const { admin, database } = setup;
    const project = await setup.control.client.projects.create(
      projectDueOn(dueDate, 'Launch', [
        setup.departing.user.uid,
        setup.leaving.user.uid,
        setup.returning.user.uid,
      ]),
    );
    const adminsProject = await setup.control.client.projects.create(
      projectDueOn('2999-01-01', 'Later', [admin.user.uid]),
    );
    // Comments queue digest emails: Control and Departing and Returning hear of Leaving's, the others of Control's.
    await setup.leaving.client.projects.addComment(project.id, { content: 'On it' });
    await setup.control.client.projects.addComment(project.id, { content: 'Thanks' });
    await pollUntil(
      async () =>
        (await queuedFor(setup.departing.user.uid)) === 2 &&
        (await queuedFor(setup.returning.user.uid)) === 2 &&
        (await queuedFor(setup.leaving.user.uid)) === 1 &&
        (await queuedFor(setup.control.user.uid)) === 1,
      WAIT_MS,
      () => 'the digests were not queued',
    );

    await admin.client.admin.deactivate(setup.departing.user.uid);
    await admin.client.admin.deactivate(setup.returning.user.uid);
    await setup.leaving.client.account.deleteAccount(setup.leaving.password);
    // Dropped in the transaction that deactivated or deleted them.
    expect(await queuedFor(setup.departing.user.uid)).toBe(0);
    expect(await queuedFor(setup.returning.user.uid)).toBe(0);
    expect(await queuedFor(setup.leaving.user.uid)).toBe(0);

    // Past midnight: the project is due tomorrow. Control's reminder comes; nobody who left has one.
    await setup.setClock(dayAt(dueDate, -1, '00:00:01'));
    await mailTo(setup.control.email, (subject) => subject === 'Launch is due tomorrow');
    const reminded = await database.db
      .selectFrom('notifications')
      .select('user_id')
      .where('kind', '=', 'due_tomorrow')
      .where('project_id', '=', project.id)
      .execute();
    expect(reminded.map((row) => row.user_id)).toEqual([setup.control.user.uid]);

    // Back before the digest hour; a comment that queues Control's digest after it shows that the outbox
    // has looked again since (a dropped email would be queued again by then).
    await admin.client.admin.reactivate(setup.returning.user.uid);
    await admin.client.projects.addComment(adminsProject.id, { content: 'Noted' });
    await pollUntil(
      async () => (await queuedFor(setup.control.user.uid)) === 2,
      WAIT_MS,
      () => "Control's second digest row was not queued",
    );

    // The digest hour: Control's digest goes; the same look at the outbox would have found the others'.
    await setup.setClock(dayAt(dueDate, -1, '08:00:01'));
    await mailTo(setup.control.email, (subject) => subject.startsWith('Daily digest: 2 notifications'));
    // A later immediate email to Control: every look at the outbox before it is over.
    await setNotificationPreference(database.db, setup.control.user.uid, 'commented', { email: 'immediate' });
    await admin.client.projects.addComment(adminsProject.id, { content: 'Last word' });
    await mailTo(setup.control.email, (subject) => subject === 'Admin commented on Later');

    expect(mailsTo(setup.departing.email)).toEqual([]);
    expect(mailsTo(setup.leaving.email)).toEqual([]);
    expect(mailsTo(setup.returning.email)).toEqual([]);
  });
});

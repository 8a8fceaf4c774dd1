import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tomorrow, type SignedInClient } from '../../../test/support/clients';
import { setNotificationPreference } from '../../../test/support/notification-preferences';
import {
  beforeAnythingIsDue,
  dayAt,
  projectDueOn,
  startNotificationServer,
  type NotificationServerSetup,
} from '../../../test/support/notification-setup';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';

const PUBLIC_URL = 'http://dojo.test';

let setup: NotificationServerSetup;
let creator: SignedInClient;
let quiet: SignedInClient;
let digester: SignedInClient;
const dueDate = tomorrow();
const input = (name: string, assignedUserIds: string[]) => projectDueOn(dueDate, name, assignedUserIds);

const mailsTo = (address: string): ParsedMail[] =>
  setup.inbox.messages.filter((mail) =>
    [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)),
  );

/** Message number `count + 1` to `address`, once it has arrived. */
async function nextMailTo(address: string, count: number): Promise<ParsedMail> {
  await pollUntil(
    () => mailsTo(address).length > count,
    WAIT_MS,
    () => `no message ${count + 1} to ${address} (got ${mailsTo(address).length})`,
  );
  return mailsTo(address)[count]!;
}

const header = (mail: ParsedMail, name: string): string | undefined =>
  mail.headerLines
    .find((line) => line.key === name)
    ?.line.slice(name.length + 1)
    .trim();

beforeAll(async () => {
  setup = await startNotificationServer({
    clockAt: beforeAnythingIsDue(dueDate),
    emailFromStart: true,
    config: {
      publicUrl: PUBLIC_URL,
      dueReminderIntervalMs: 50,
      notificationEmailIntervalMs: 50,
      digestHour: 8,
      notificationTimeZone: 'UTC',
    },
    members: [
      {
        name: 'Creator',
        preferences: { due_tomorrow: { email: 'immediate' }, overdue: { email: 'immediate' } },
      },
      { name: 'Quiet', preferences: { due_tomorrow: { email: 'off' } } },
      { name: 'Digester', preferences: { due_tomorrow: { email: 'digest' }, overdue: { email: 'digest' } } },
    ],
  });
  [creator, quiet, digester] = setup.members as [SignedInClient, SignedInClient, SignedInClient];
});
afterAll(() => setup?.stop());

describe('notification email', () => {
  it('mails immediate kinds once, folds digest kinds into one daily message, honours off and one-click unsubscribe', async () => {
    const { server, database } = setup;
    const alpha = await creator.client.projects.create(
      input('Alpha <script>', [quiet.user.uid, digester.user.uid]),
    );
    const beta = await quiet.client.projects.create(input('Beta', [digester.user.uid]));

    // Past midnight (before the digest hour): both projects are due tomorrow.
    await setup.setClock(dayAt(dueDate, -1, '00:00:01'));
    const immediate = await nextMailTo(creator.email, 0);
    expect(immediate.subject).toBe('Alpha <script> is due tomorrow');
    const projectUrl = `${PUBLIC_URL}/projects/${alpha.id}`;
    expect(immediate.text).toContain(projectUrl);
    expect(immediate.html).toContain(`href="${projectUrl}"`);
    // Everything in the HTML part is escaped.
    expect(immediate.html).toContain('Alpha &#60;script&#62;');
    expect(immediate.html).not.toContain('<script>');
    const unsubscribe = header(immediate, 'list-unsubscribe');
    expect(unsubscribe).toMatch(/^<http:\/\/dojo\.test\/api\/notifications\/unsubscribe\?token=[^>]+>$/);
    expect(header(immediate, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const unsubscribeUrl = new URL(unsubscribe!.slice(1, -1));
    expect(immediate.text).toContain(unsubscribeUrl.href);

    const target = `${server.url}${unsubscribeUrl.pathname}${unsubscribeUrl.search}`;
    const dueTomorrowPreference = () =>
      database.db
        .selectFrom('notification_preferences')
        .select(['email', 'in_app'])
        .where('user_id', '=', creator.user.uid)
        .where('kind', '=', 'due_tomorrow')
        .executeTakeFirstOrThrow();
    // The GET of the address only asks, and changes nothing (link scanners must not unsubscribe anyone).
    const page = await fetch(target);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<button type="submit">Unsubscribe</button>');
    expect(await dueTomorrowPreference()).toEqual({ email: 'immediate', in_app: 1 });
    // One-click unsubscribe: a POST to the header's address, no cookie, turns 'due tomorrow' email off.
    const done = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('no longer receive');
    expect(await dueTomorrowPreference()).toEqual({ email: 'off', in_app: 1 });
    // A forged or missing token is refused.
    const forged = await fetch(`${server.url}/api/notifications/unsubscribe?token=${'x'.repeat(20)}.abc`, {
      method: 'POST',
    });
    expect(forged.status).toBe(400);
    expect((await fetch(`${server.url}/api/notifications/unsubscribe`, { method: 'POST' })).status).toBe(400);

    // After unsubscribing, a new 'due tomorrow' for the creator is not mailed (checked below).
    await creator.client.projects.create(input('Gamma', [quiet.user.uid]));

    // A notification from a member's action (a comment) links to the comment.
    await setNotificationPreference(database.db, creator.user.uid, 'commented', { email: 'immediate' });
    const comment = await quiet.client.projects.addComment(alpha.id, { content: 'Looks <good>' });
    const commented = await nextMailTo(creator.email, 1);
    expect(commented.subject).toBe('Quiet commented on Alpha <script>');
    expect(commented.text).toContain(`${projectUrl}#comment-${comment.id}`);
    expect(commented.html).toContain(`href="${projectUrl}#comment-${comment.id}"`);

    // The digest hour: one message with both of the digester's notifications.
    await setup.setClock(dayAt(dueDate, -1, '08:00:01'));
    const digest = await nextMailTo(digester.email, 0);
    expect(digest.subject).toBe(
      `Daily digest: 2 notifications (${dayAt(dueDate, -1, '00:00:00').slice(0, 10)})`,
    );
    expect(digest.text).toContain(projectUrl);
    expect(digest.text).toContain(`${PUBLIC_URL}/projects/${beta.id}`);
    expect(digest.html).toContain('Beta');
    expect(header(digest, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');

    // Overdue: the creator's immediate 'overdue' mail proves the sender ran again after the digest.
    await setup.setClock(dayAt(dueDate, 1, '00:00:01'));
    const overdue = await nextMailTo(creator.email, 2);
    expect(overdue.subject).toMatch(/ is overdue$/);
    // The digest went once, 'off' sent nothing, and nothing came for the unsubscribed kind.
    expect(mailsTo(digester.email)).toHaveLength(1);
    expect(mailsTo(quiet.email)).toHaveLength(0);
    expect(mailsTo(creator.email).filter((mail) => mail.subject?.endsWith('is due tomorrow'))).toHaveLength(
      1,
    );
  });
});

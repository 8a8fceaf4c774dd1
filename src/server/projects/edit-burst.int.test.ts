import { describe, expect, it } from 'vitest';
import {
  createProjects,
  editEach,
  expectBurstLimitedTo,
  expectLimitedTo,
} from '../../../test/support/edit-burst';
import { useNotificationServer } from '../../../test/support/notification-setup';

/** Edits per member per minute in this server; the burst is well past it. */
const LIMIT = 20;
const BURST = 150;

const setup = useNotificationServer(
  {
    clockAt: new Date().toISOString(),
    emailFromStart: true,
    config: { publicUrl: 'http://dojo.test', writesPerMinute: LIMIT, notificationEmailIntervalMs: 50 },
    members: [
      { name: 'Editor' },
      { name: 'Watcher', preferences: { project_edited: { email: 'immediate' } } },
      { name: 'Other' },
    ],
  },
  ['editor', 'watcher', 'other'],
);

const mailsTo = (address: string) =>
  setup.inbox.messages.filter((mail) =>
    [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === address)),
  );

describe('a burst of project edits by one member', () => {
  it(
    'is refused after the limit, changes nothing when refused, and notifies and mails no more than the limit',
    { timeout: 120_000 },
    async () => {
      const { server, database, editor, watcher, other } = setup;
      await expectBurstLimitedTo({ urls: [server.url], editor, watcher, db: database.db }, BURST, LIMIT);
      // Each accepted edit mails the watcher once; wait until the outbox has sent all it holds for them.
      const outbox = () =>
        database.db
          .selectFrom('notification_emails')
          .select(['sent_at'])
          .where('user_id', '=', watcher.user.uid)
          .execute();
      await expect
        .poll(async () => {
          const rows = await outbox();
          return rows.length >= LIMIT && rows.every((row) => row.sent_at !== null);
        })
        .toBe(true);
      expect(await outbox()).toHaveLength(LIMIT);
      expect(mailsTo(watcher.email)).toHaveLength(LIMIT);

      // Another member keeps a budget of their own while the editor's is spent.
      const [own] = await createProjects(other, 1, [other.user.uid]);
      const otherCookie = other.client.transport.cookieHeader() ?? '';
      expect((await editEach([server.url], otherCookie, [own!])).map((answer) => answer.status)).toEqual([
        200,
      ]);
      const [again] = await createProjects(editor, 1, [editor.user.uid]);
      expectLimitedTo(
        await editEach([server.url], editor.client.transport.cookieHeader() ?? '', [again!]),
        0,
      );
    },
  );
});

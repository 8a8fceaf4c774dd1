import { describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  MAX_ASSIGNEES,
  mentionToken,
  messages,
  NOTIFICATION_KINDS,
  notificationsQuery,
  UNREAD_COUNT_CAP,
  unreadNotificationsCountQuery,
  type Notification,
  type NotificationUnreadCount,
  type Project,
} from '../../common';
import { addBulkMembers } from '../../../test/support/bulk-users';
import { openServerDatabase } from '../../../test/support/test-database';
import { countUnreadOf } from './notifications-repository';
import { useTestTeam } from '../../../test/support/test-team';
import {
  createProjectAs,
  errorOf,
  LiveRecorder,
  newClient,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';

const team = useTestTeam({ ada: 'Ada', bob: 'Bob', cyd: 'Cyd', dee: 'Dee' });

const createProject = (by: SignedInClient, name: string, assignees: SignedInClient[]): Promise<Project> =>
  createProjectAs(by, {
    name,
    details: 'Who hears of what.',
    assignedUserIds: assignees.map((user) => user.user.uid),
  });

/** A user's notifications of one project, newest first, as `kind` or `kind:commentId`. */
async function kindsOf(user: SignedInClient, projectId: string): Promise<string[]> {
  const { notifications } = await user.client.notifications.page({ limit: 100 });
  return notifications
    .filter((notification) => notification.projectId === projectId)
    .map((notification) =>
      notification.commentId ? `${notification.kind}:${notification.commentId}` : notification.kind,
    );
}

describe('notifications created by actions', () => {
  it('tells new assignees, on create and on edit, and never the actor', async () => {
    const project = await createProject(team.ada, 'Assigning', [team.ada, team.bob]);
    expect(await kindsOf(team.bob, project.id)).toEqual(['assigned']);
    expect(await kindsOf(team.ada, project.id)).toEqual([]);

    await team.ada.client.projects.update(project.id, {
      name: 'Assigning, edited',
      details: project.details,
      dueDate: project.dueDate,
      category: project.category,
      assignedUserIds: [team.ada.user.uid, team.bob.user.uid, team.cyd.user.uid],
      version: project.version,
    });
    // Cyd is new on it: assigned (not also edited); Bob was on it: edited; Ada did it: nothing.
    expect(await kindsOf(team.cyd, project.id)).toEqual(['assigned']);
    expect(await kindsOf(team.bob, project.id)).toEqual(['project_edited', 'assigned']);
    expect(await kindsOf(team.ada, project.id)).toEqual([]);

    const [newest] = (await team.bob.client.notifications.page({ limit: 1 })).notifications;
    expect(newest).toMatchObject({
      kind: 'project_edited',
      projectId: project.id,
      projectName: 'Assigning, edited',
      actor: { id: team.ada.user.uid, displayName: 'Ada' },
      readAt: null,
    });
  });

  it("tells no new assignee who turned 'assigned' off in the app, and rings the others' bells live", async () => {
    await team.cyd.client.notifications.updatePreferences({
      preferences: [{ kind: 'assigned', inApp: false, email: 'off' }],
    });
    await team.bob.client.notifications.markAllRead();
    const bobsBell = new LiveRecorder<NotificationUnreadCount>(
      team.bob.client,
      unreadNotificationsCountQuery(team.bob.user.uid),
    );
    try {
      await bobsBell.until((docs) => docs[0]?.count === 0, 10_000, 'no unread');
      const project = await createProject(team.ada, 'Not for Cyd', [team.ada, team.bob, team.cyd]);
      await bobsBell.until((docs) => docs[0]?.count === 1, 10_000, "Bob's bell rings");
      expect(await kindsOf(team.bob, project.id)).toEqual(['assigned']);
      expect(await kindsOf(team.cyd, project.id)).toEqual([]);
    } finally {
      bobsBell.unsubscribe();
      await team.cyd.client.notifications.updatePreferences({
        preferences: [{ kind: 'assigned', inApp: true, email: 'off' }],
      });
    }
  });

  it('tells all of the most assignees with the longest ids, whose changes need more than one NOTIFY', async () => {
    // 49 members with 64-character ids and Ada: the project's change and the 49 bells' changes are
    // ≈ 12.7 kB of JSON, more than PostgreSQL's 8,000-byte NOTIFY takes, so the create cannot be the one
    // statement it is with shorter ids (docs/decisions/041-create-in-one-statement.md).
    const crowd = await addBulkMembers(team.server, { count: MAX_ASSIGNEES - 1, idLength: 64 });
    const dashboard = new LiveRecorder<Project>(
      team.ada.client,
      dashboardQuery('mine', team.ada.user.uid, 50),
    );
    const database = await openServerDatabase(team.server);
    try {
      await dashboard.until(() => true, 10_000, 'the first snapshot');
      const project = await createProjectAs(team.ada, {
        name: 'A crowd with long names',
        details: 'Everyone hears of it.',
        assignedUserIds: [team.ada.user.uid, ...crowd],
      });
      await dashboard.until((docs) => docs.some((doc) => doc.id === project.id), 10_000, 'the project live');
      const told = await database.db
        .selectFrom('notifications')
        .select('user_id')
        .where('project_id', '=', project.id)
        .where('kind', '=', 'assigned')
        .execute();
      expect(told.map((row) => row.user_id).sort()).toEqual([...crowd].sort());
    } finally {
      dashboard.unsubscribe();
      await database.close();
    }
  });

  it("tells the creator and assignees of a comment, and a mention wins over 'commented'", async () => {
    const project = await createProject(team.ada, 'Commenting', [team.bob, team.cyd]);
    const plain = await team.bob.client.projects.addComment(project.id, { content: 'A plain remark' });
    expect(await kindsOf(team.ada, project.id)).toEqual([`commented:${plain.id}`]);
    expect(await kindsOf(team.cyd, project.id)).toEqual(['assigned', `commented:${plain.id}`].reverse());
    expect(await kindsOf(team.bob, project.id)).toEqual(['assigned']);

    // Cyd is on the project and mentioned: one 'mentioned'. Dee is not on it: mentioned all the same.
    // The author mentioning themself, and a token of nobody, tell no one.
    const nobody = 'A'.repeat(22);
    const mention = await team.bob.client.projects.addComment(project.id, {
      content: `${mentionToken(team.cyd.user.uid)} and ${mentionToken(team.dee.user.uid)}, see ${mentionToken(team.bob.user.uid)} ${mentionToken(nobody)}`,
    });
    expect((await kindsOf(team.cyd, project.id))[0]).toBe(`mentioned:${mention.id}`);
    expect(await kindsOf(team.cyd, project.id)).toHaveLength(3);
    expect(await kindsOf(team.dee, project.id)).toEqual([`mentioned:${mention.id}`]);
    expect(await kindsOf(team.ada, project.id)).toEqual([`commented:${mention.id}`, `commented:${plain.id}`]);
    expect(await kindsOf(team.bob, project.id)).toEqual(['assigned']);
  });

  it('tells the people on a project that it was completed and reopened', async () => {
    const project = await createProject(team.ada, 'Completing', [team.ada, team.bob]);
    await team.ada.client.projects.complete(project.id);
    await team.ada.client.projects.reopen(project.id);
    expect(await kindsOf(team.bob, project.id)).toEqual([
      'project_reopened',
      'project_completed',
      'assigned',
    ]);
    expect(await kindsOf(team.ada, project.id)).toEqual([]);
  });
});

describe('who is never told', () => {
  it('tells no deactivated member, neither as assignee nor when mentioned', async () => {
    // Ada signed up first on a fresh install: she is its owner, an admin.
    const eve = await signUpClient(team.server.url, 'Eve');
    try {
      const project = await createProject(team.ada, 'Without Eve', [eve]);
      await team.ada.client.admin.deactivate(eve.user.uid);
      await team.ada.client.projects.addComment(project.id, {
        content: `Ping ${mentionToken(eve.user.uid)}`,
      });
      await team.ada.client.admin.reactivate(eve.user.uid);
      const back = newClient(team.server.url);
      try {
        await back.auth.whenReady();
        await back.auth.logIn({ email: eve.email, password: eve.password });
        const { notifications } = await back.notifications.page({ limit: 100 });
        expect(notifications.map((notification) => notification.kind)).toEqual(['assigned']);
      } finally {
        back.close();
      }
    } finally {
      eve.client.close();
    }
  });
});

describe('preferences', () => {
  it('defaults every kind to in the app, no email, and applies a change at once', async () => {
    const initial = await team.dee.client.notifications.preferences();
    expect(initial.preferences).toHaveLength(NOTIFICATION_KINDS.length);
    expect(initial.preferences.every((preference) => preference.inApp && preference.email === 'off')).toBe(
      true,
    );
    expect(initial.emailAvailable).toBe(false);

    const updated = await team.dee.client.notifications.updatePreferences({
      preferences: [{ kind: 'commented', inApp: false, email: 'off' }],
    });
    expect(updated.preferences.find((preference) => preference.kind === 'commented')?.inApp).toBe(false);
    expect(updated.preferences.find((preference) => preference.kind === 'assigned')?.inApp).toBe(true);

    const project = await createProject(team.ada, 'Quiet please', [team.dee]);
    await team.ada.client.projects.addComment(project.id, { content: 'Dee chose not to hear of this' });
    expect(await kindsOf(team.dee, project.id)).toEqual(['assigned']);

    await team.dee.client.notifications.updatePreferences({
      preferences: [{ kind: 'commented', inApp: true, email: 'off' }],
    });
    const comment = await team.ada.client.projects.addComment(project.id, { content: 'Now Dee hears it' });
    expect(await kindsOf(team.dee, project.id)).toEqual([`commented:${comment.id}`, 'assigned']);
  });

  it('refuses a kind that does not exist', async () => {
    const error = await errorOf(() =>
      team.dee.client.notifications.updatePreferences({
        preferences: [{ kind: 'gossip' as 'assigned', inApp: false, email: 'off' }],
      }),
    );
    expect(error.code).toBe('invalid-argument');
  });
});

describe('reading and marking', () => {
  it('pages newest first by cursor', async () => {
    const project = await createProject(team.ada, 'Paging', [team.cyd]);
    for (let index = 0; index < 5; index += 1) {
      await team.ada.client.projects.addComment(project.id, { content: `remark ${index}` });
    }
    const all = (await team.cyd.client.notifications.page({ limit: 100 })).notifications;
    const first = await team.cyd.client.notifications.page({ limit: 2 });
    const second = await team.cyd.client.notifications.page({ limit: 2, cursor: first.nextCursor });
    expect(first.notifications.map((item) => item.id)).toEqual(all.slice(0, 2).map((item) => item.id));
    expect(second.notifications.map((item) => item.id)).toEqual(all.slice(2, 4).map((item) => item.id));
    const cursorError = await errorOf(() =>
      team.cyd.client.notifications.page({ cursor: 'not-a-notification' }),
    );
    expect(cursorError.code).toBe('invalid-argument');
  });

  it("lets only the recipient mark a notification read; another's answers 404", async () => {
    const project = await createProject(team.ada, 'Mine only', [team.bob]);
    const [notification] = (await team.bob.client.notifications.page({ limit: 1 })).notifications;
    expect(notification?.projectId).toBe(project.id);

    const error = await errorOf(() => team.cyd.client.notifications.markRead(notification!.id));
    expect(error.code).toBe('not-found');
    expect(error.message).toBe(messages.notificationNotFound);
    expect((await team.bob.client.notifications.page({ limit: 1 })).notifications[0]?.readAt).toBeNull();

    await team.bob.client.notifications.markRead(notification!.id);
    expect((await team.bob.client.notifications.page({ limit: 1 })).notifications[0]?.readAt).not.toBeNull();

    const anonymous = await fetch(`${team.server.url}/api/notifications`);
    expect(anonymous.status).toBe(401);
  });

  it("refuses to follow another member's notifications live, whether or not the member follows them too", async () => {
    // Bob's own subscriptions come first, so the same queries already have live groups on this server.
    const ownPage = new LiveRecorder(team.bob.client, notificationsQuery(team.bob.user.uid));
    const ownCount = new LiveRecorder(team.bob.client, unreadNotificationsCountQuery(team.bob.user.uid));
    await Promise.all([ownPage.until(() => true), ownCount.until(() => true)]);
    const page = new LiveRecorder(team.cyd.client, notificationsQuery(team.bob.user.uid));
    const count = new LiveRecorder(team.cyd.client, unreadNotificationsCountQuery(team.bob.user.uid));
    try {
      await expect.poll(() => page.error?.message).toBe(messages.notificationsOnlyYours);
      await expect.poll(() => count.error?.message).toBe(messages.notificationsOnlyYours);
      expect(page.docs).toBeUndefined();
      expect(count.docs).toBeUndefined();
    } finally {
      for (const recorder of [page, count, ownPage, ownCount]) recorder.unsubscribe();
    }
  });
});

describe('live', () => {
  it('updates the unread count and the first page as notifications come and are read', async () => {
    await team.bob.client.notifications.markAllRead();
    const count = new LiveRecorder<NotificationUnreadCount>(
      team.bob.client,
      unreadNotificationsCountQuery(team.bob.user.uid),
    );
    const page = new LiveRecorder<Notification>(team.bob.client, notificationsQuery(team.bob.user.uid, 5));
    try {
      await count.until((docs) => docs[0]?.count === 0, 10_000, 'no unread');
      const project = await createProject(team.ada, 'Live bell', [team.bob]);
      const comment = await team.ada.client.projects.addComment(project.id, { content: 'Ring' });
      await count.until((docs) => docs[0]?.count === 2, 10_000, 'two unread');
      await page.until(
        (docs) => docs[0]?.commentId === comment.id && docs[1]?.kind === 'assigned',
        10_000,
        'the comment on top of the page',
      );

      await team.bob.client.notifications.markRead(page.docs![0]!.id);
      await count.until((docs) => docs[0]?.count === 1, 10_000, 'one unread');
      await page.until((docs) => docs[0]?.readAt !== null, 10_000, 'the comment read');

      await team.bob.client.notifications.markAllRead();
      await count.until((docs) => docs[0]?.count === 0, 10_000, 'all read');
    } finally {
      count.unsubscribe();
      page.unsubscribe();
    }
  });

  it("raises every member's bell told by one comment to that member's own exact count", async () => {
    // One comment dirties several bells in one fan-out: they are re-read together (one grouped count),
    // and each must still get its own member's number.
    for (const user of [team.bob, team.cyd, team.dee]) await user.client.notifications.markAllRead();
    const project = await createProject(team.ada, 'Many bells', [team.bob, team.cyd, team.dee]);
    await createProject(team.ada, 'One more for Dee', [team.dee]);
    await team.cyd.client.notifications.markAllRead();
    const bells = [team.bob, team.cyd, team.dee].map(
      (user) =>
        new LiveRecorder<NotificationUnreadCount>(user.client, unreadNotificationsCountQuery(user.user.uid)),
    );
    const [bobBell, cydBell, deeBell] = bells as [
      LiveRecorder<NotificationUnreadCount>,
      LiveRecorder<NotificationUnreadCount>,
      LiveRecorder<NotificationUnreadCount>,
    ];
    const countIs = (count: number) => (docs: NotificationUnreadCount[]) => docs[0]?.count === count;
    try {
      await bobBell.until(countIs(1), 10_000, 'Bob: assigned');
      await cydBell.until(countIs(0), 10_000, 'Cyd: all read');
      await deeBell.until(countIs(2), 10_000, 'Dee: assigned twice');

      await team.ada.client.projects.addComment(project.id, { content: 'Everyone, look' });
      await bobBell.until(countIs(2), 10_000, 'Bob: one more');
      await cydBell.until(countIs(1), 10_000, 'Cyd: one more');
      await deeBell.until(countIs(3), 10_000, 'Dee: one more');
      [team.bob, team.cyd, team.dee].forEach((user, index) =>
        expect(bells[index]?.docs?.[0]?.userId).toBe(user.user.uid),
      );
    } finally {
      for (const bell of bells) bell.unsubscribe();
    }
  });

  it('counts a backlog of unread notifications only as far as the bell shows', async () => {
    for (const user of [team.bob, team.dee]) await user.client.notifications.markAllRead();
    const project = await createProject(team.ada, 'Backlog', [team.bob, team.dee]);
    const database = await openServerDatabase(team.server);
    const countIs = (count: number) => (docs: NotificationUnreadCount[]) => docs[0]?.count === count;
    const bells: LiveRecorder<NotificationUnreadCount>[] = [];
    try {
      // More unread than the bell counts, written as a long absence would leave them.
      const now = new Date().toISOString();
      await database.db
        .insertInto('notifications')
        .values(
          Array.from({ length: UNREAD_COUNT_CAP + 50 }, (_, n) => ({
            id: `backlog-${project.id}-${n}`,
            user_id: team.dee.user.uid,
            kind: 'project_edited',
            project_id: project.id,
            actor_id: team.ada.user.uid,
            created_at: now,
          })),
        )
        .execute();
      const [bobBell, deeBell] = [team.bob, team.dee].map((user) => {
        const bell = new LiveRecorder<NotificationUnreadCount>(
          user.client,
          unreadNotificationsCountQuery(user.user.uid),
        );
        bells.push(bell);
        return bell;
      }) as [LiveRecorder<NotificationUnreadCount>, LiveRecorder<NotificationUnreadCount>];
      await bobBell.until(countIs(1), 10_000, 'Bob: assigned');
      await deeBell.until(countIs(UNREAD_COUNT_CAP), 10_000, 'Dee: the cap, read alone');

      // A comment re-reads both bells in one grouped count, capped alike.
      await team.ada.client.projects.addComment(project.id, { content: 'And one more' });
      await bobBell.until(countIs(2), 10_000, 'Bob: one more');
      const counts = await countUnreadOf(
        database.db,
        [team.bob.user.uid, team.dee.user.uid],
        UNREAD_COUNT_CAP,
      );
      expect(Object.fromEntries(counts)).toEqual({
        [team.bob.user.uid]: 2,
        [team.dee.user.uid]: UNREAD_COUNT_CAP,
      });

      await team.dee.client.notifications.markAllRead();
      await deeBell.until(countIs(0), 10_000, 'Dee: all read');
    } finally {
      for (const bell of bells) bell.unsubscribe();
      await database.close();
    }
  });
});

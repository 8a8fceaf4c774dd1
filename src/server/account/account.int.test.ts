import { describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  DELETED_USER_NAME,
  messages,
  PASSWORD_RESET_TTL_MS,
  projectCommentsQuery,
  type Comment,
  type Project,
  type UserProfile,
} from '../../common';

import {
  createProjectAs,
  errorOf,
  LiveRecorder,
  newClient,
  signUpClient,
} from '../../../test/support/clients';
import { makePng, SVG_IMAGE } from '../../../test/support/fixtures';
import { expireLinks } from '../../../test/support/test-database';
import { useTestTeam } from '../../../test/support/test-team';

const team = useTestTeam({ owner: 'Owner' });

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** The signed-in user as the server sees this cookie (null when its session has ended). */
async function sessionUser(cookie: string): Promise<{ uid: string } | null> {
  const response = await fetch(`${team.server.url}/api/auth/session`, { headers: { cookie } });
  return ((await response.json()) as { user: { uid: string } | null }).user;
}

/** Logs in over raw HTTP with a User-Agent, as a browser on another device would; returns its cookie. */
async function logInFrom(userAgent: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${team.server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  return (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}

describe('profile', () => {
  it('changes name and avatar, live in users panels, projects and past comments; the old avatar lasts until then', async () => {
    const author = await signUpClient(team.server.url, 'Before Name');
    const watcher = await signUpClient(team.server.url, 'Watcher');
    const project = await createProjectAs(author, {
      name: 'Renamed author',
      details: 'Shows its creator',
      category: 'sales',
    });
    await author.client.projects.addComment(project.id, { content: 'An old comment' });

    const panel = new LiveRecorder<UserProfile>(watcher.client, {
      kind: 'query',
      collection: 'users',
      orderBy: { field: 'displayName', direction: 'asc' },
      limit: 1000,
    });
    const projectView = new LiveRecorder<Project>(watcher.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    const list = new LiveRecorder<Project>(watcher.client, dashboardQuery('all', watcher.user.uid, 50));
    const comments = new LiveRecorder<Comment>(watcher.client, projectCommentsQuery(project.id, 20));
    await Promise.all([
      panel.until((docs) => docs.some((doc) => doc.id === author.user.uid)),
      projectView.until((docs) => docs.length === 1),
      list.until((docs) => docs.some((doc) => doc.id === project.id)),
      comments.until((docs) => docs.length === 1),
    ]);

    const oldPhoto = author.user.photoURL;
    expect((await fetch(`${team.server.url}${oldPhoto}`)).status).toBe(200);
    const newAvatar = makePng(600);
    const updated = await author.client.account.updateProfile({
      displayName: '  After Name ',
      thumbnail: new Blob([new Uint8Array(newAvatar)], { type: 'image/png' }),
      fileName: 'new face.png',
    });
    expect(updated.displayName).toBe('After Name');
    expect(updated.photoURL).not.toBe(oldPhoto);
    const image = await fetch(`${team.server.url}${updated.photoURL}`);
    expect(Buffer.from(await image.arrayBuffer()).equals(newAvatar)).toBe(true);
    // The old picture is gone once the new one is in place: its URL no longer serves bytes.
    expect((await fetch(`${team.server.url}${oldPhoto}`)).status).toBe(401);

    const renamed = (doc: { displayName: string; photoURL: string }) =>
      doc.displayName === 'After Name' && doc.photoURL === updated.photoURL;
    await panel.until(
      (docs) => docs.some((doc) => doc.id === author.user.uid && renamed(doc)),
      10_000,
      'panel',
    );
    await projectView.until((docs) => !!docs[0] && renamed(docs[0].createdBy), 10_000, 'project page');
    await list.until(
      (docs) => docs.some((doc) => doc.id === project.id && doc.assignedUsersList.every(renamed)),
      10_000,
      'dashboard card',
    );
    await comments.until((docs) => !!docs[0] && renamed(docs[0]), 10_000, 'past comment');
    expect((await author.client.auth.currentUser)?.displayName).toBe('After Name');
    for (const recorder of [panel, projectView, list, comments]) recorder.unsubscribe();
    author.client.close();
    watcher.client.close();
  });

  it('refuses a bad name or picture with every problem at once and changes nothing', async () => {
    const user = await signUpClient(team.server.url, 'Steady');
    const bad = await errorOf(() =>
      user.client.account.updateProfile({
        displayName: '   ',
        thumbnail: new Blob([new Uint8Array(SVG_IMAGE)], { type: 'image/svg+xml' }),
        fileName: 'x.svg',
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.fields).toEqual({
      displayName: messages.displayNameRequired,
      thumbnail: messages.thumbnailNotImage,
    });
    const tooBig = await errorOf(() =>
      user.client.account.updateProfile({ thumbnail: new Blob([new Uint8Array(makePng(150_000))]) }),
    );
    expect(tooBig.fields?.thumbnail).toBe(messages.thumbnailTooLarge);
    const session = await newClient(team.server.url).auth.logIn({
      email: user.email,
      password: user.password,
    });
    expect([session.displayName, session.photoURL]).toEqual(['Steady', user.user.photoURL]);
    user.client.close();
  });
});

describe('password and sessions', () => {
  it('lists the sessions by device and signs out one, or every other', async () => {
    const user = await signUpClient(team.server.url, 'Traveller');
    const laptop = await logInFrom(CHROME_ON_LINUX, user.email, user.password);
    const phone = await logInFrom('', user.email, user.password);
    const sessions = await user.client.account.listSessions();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions.map((session) => session.device)).toEqual(
      expect.arrayContaining(['Chrome 131 on Linux', 'Unknown device']),
    );
    const laptopSession = sessions.find((session) => session.device === 'Chrome 131 on Linux');
    await user.client.account.signOutSession(laptopSession?.id ?? '');
    expect(await sessionUser(laptop)).toBeNull();
    expect(await sessionUser(phone)).toMatchObject({ uid: user.user.uid });
    const again = await errorOf(() => user.client.account.signOutSession(laptopSession?.id ?? ''));
    expect([again.status, again.message]).toEqual([404, messages.sessionNotFound]);

    await user.client.account.signOutOtherSessions();
    expect(await sessionUser(phone)).toBeNull();
    expect(await user.client.account.listSessions()).toHaveLength(1);
    user.client.close();
  });

  it('changes the password only with the current one, and signs out the other sessions live', async () => {
    const user = await signUpClient(team.server.url, 'Changer');
    const other = newClient(team.server.url);
    await other.auth.logIn({ email: user.email, password: user.password });
    const otherSignedOut = new Promise<void>((resolve) =>
      other.auth.onAuthStateChanged((signedIn) => {
        if (signedIn === null) resolve();
      }),
    );
    // The other tab holds a live subscription: its socket learns at once that the session ended.
    const otherView = new LiveRecorder(other, { kind: 'doc', collection: 'users', id: user.user.uid });
    await otherView.until((docs) => docs.length === 1);

    const wrong = await errorOf(() =>
      user.client.account.changePassword({
        currentPassword: 'not it at all',
        newPassword: 'a brand new secret',
      }),
    );
    expect([wrong.status, wrong.fields?.currentPassword]).toEqual([403, messages.currentPasswordWrong]);
    const weak = await errorOf(() =>
      user.client.account.changePassword({ currentPassword: user.password, newPassword: 'short' }),
    );
    expect(weak.fields?.newPassword).toBe(messages.passwordWeak);

    await user.client.account.changePassword({
      currentPassword: user.password,
      newPassword: 'a brand new secret',
    });
    await otherSignedOut;
    expect(user.client.auth.currentUser?.uid).toBe(user.user.uid);
    expect((await user.client.account.listSessions()).length).toBe(1);
    const old = await errorOf(() =>
      newClient(team.server.url).auth.logIn({ email: user.email, password: user.password }),
    );
    expect(old.code).toBe('wrong-credentials');
    const fresh = await newClient(team.server.url).auth.logIn({
      email: user.email,
      password: 'a brand new secret',
    });
    expect(fresh.uid).toBe(user.user.uid);
    other.close();
    user.client.close();
  });
});

describe('deleting an account', () => {
  it('needs the password; keeps what the user wrote under a deleted user; frees the address', async () => {
    const user = await signUpClient(team.server.url, 'Departing');
    const project = await createProjectAs(user, {
      name: 'Outlives its creator',
      details: 'x',
      category: 'marketing',
      assignedUserIds: [user.user.uid, team.owner.user.uid],
    });
    await user.client.projects.addComment(project.id, { content: 'My last words' });

    const wrong = await errorOf(() => user.client.account.deleteAccount('not the password'));
    expect([wrong.status, wrong.message]).toEqual([403, messages.passwordWrong]);
    await user.client.account.deleteAccount(user.password);

    const login = await errorOf(() =>
      newClient(team.server.url).auth.logIn({ email: user.email, password: user.password }),
    );
    expect(login.code).toBe('wrong-credentials');
    const kept = await team.owner.client.projects.get(project.id);
    expect(kept.createdBy).toEqual({ id: user.user.uid, displayName: DELETED_USER_NAME, photoURL: '' });
    const page = await team.owner.client.projects.listComments(project.id);
    expect(page.comments[0]).toMatchObject({ content: 'My last words', displayName: DELETED_USER_NAME });
    // Their picture is removed: its download URL no longer serves it.
    expect((await fetch(`${team.server.url}${user.user.photoURL}`)).status).toBe(401);
    const members = await team.owner.client.admin.listMembers({ search: 'Departing' });
    expect(members.members).toEqual([]);

    const again = await signUpClient(team.server.url, 'Departing');
    expect(again.user.uid).not.toBe(user.user.uid);
    again.client.close();
  });
});

describe('password reset links', () => {
  it('lets an admin make a one-time link that sets a new password and signs out everywhere', async () => {
    const user = await signUpClient(team.server.url, 'Forgetful');
    const before = Date.now();
    const link = await team.owner.client.admin.createPasswordReset(user.user.uid);
    const after = Date.now();
    // No PUBLIC_URL: the server sends a path, and the client puts it on the origin it talks to.
    const url = new URL(link.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${team.server.url}/reset-password`);
    const token = url.searchParams.get('token') ?? '';
    expect(token).toMatch(/^[\w-]{20,}$/);
    // Valid for an hour from its making.
    expect(Date.parse(link.expiresAt)).toBeGreaterThanOrEqual(before + PASSWORD_RESET_TTL_MS);
    expect(Date.parse(link.expiresAt)).toBeLessThanOrEqual(after + PASSWORD_RESET_TTL_MS);
    const anonymous = newClient(team.server.url);
    expect((await anonymous.access.checkPasswordReset(token)).expiresAt).toBe(link.expiresAt);
    const weak = await errorOf(() => anonymous.access.resetPassword({ token, password: 'short' }));
    expect(weak.fields?.password).toBe(messages.passwordWeak);

    await anonymous.access.resetPassword({ token, password: 'remembered at last' });
    expect(await errorOf(() => user.client.account.listSessions())).toMatchObject({ status: 401 });
    const fresh = await newClient(team.server.url).auth.logIn({
      email: user.email,
      password: 'remembered at last',
    });
    expect(fresh.uid).toBe(user.user.uid);

    const reused = await errorOf(() =>
      anonymous.access.resetPassword({ token, password: 'yet another one' }),
    );
    expect([reused.status, reused.message]).toEqual([410, messages.resetLinkUsed]);
    const unknown = await errorOf(() => anonymous.access.checkPasswordReset('nope'));
    expect([unknown.status, unknown.message]).toEqual([404, messages.resetLinkInvalid]);
  });

  it('refuses an expired link, and the password stays as it was', async () => {
    const user = await signUpClient(team.server.url, 'Slow Reader');
    const link = await team.owner.client.admin.createPasswordReset(user.user.uid);
    const token = new URL(link.url).searchParams.get('token') ?? '';
    const anonymous = newClient(team.server.url);
    expect((await anonymous.access.checkPasswordReset(token)).expiresAt).toBe(link.expiresAt);
    // An hour later, without waiting one: the link's expiry is moved into the past.
    await expireLinks(team.server, 'password_resets', 'user_id', user.user.uid);
    const check = await errorOf(() => anonymous.access.checkPasswordReset(token));
    expect([check.status, check.message]).toEqual([410, messages.resetLinkExpired]);
    const reset = await errorOf(() =>
      anonymous.access.resetPassword({ token, password: 'too late for this' }),
    );
    expect([reset.status, reset.message]).toEqual([410, messages.resetLinkExpired]);
    const stillIn = await newClient(team.server.url).auth.logIn({
      email: user.email,
      password: user.password,
    });
    expect(stillIn.uid).toBe(user.user.uid);
  });

  it("says 'Forgot password?' emails are off when the server has no SMTP", async () => {
    const anonymous = newClient(team.server.url);
    expect((await anonymous.access.options()).passwordResetByEmail).toBe(false);
    const off = await errorOf(() => anonymous.access.requestPasswordReset(team.owner.email));
    expect([off.status, off.message]).toEqual([404, messages.resetByEmailOff]);
  });
});

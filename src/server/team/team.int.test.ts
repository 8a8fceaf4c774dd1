import { describe, expect, it } from 'vitest';
import { messages, type Member, type UserProfile } from '../../common';
import { DojoError, type DojoClient } from '../../sdk';
import {
  createProjectAs,
  errorOf,
  LiveRecorder,
  newClient,
  signUpClient,
} from '../../../test/support/clients';
import { makePng, storedBlobFiles, uniqueEmail } from '../../../test/support/fixtures';
import { expireLinks } from '../../../test/support/test-database';
import { useTestTeam } from '../../../test/support/test-team';

const team = useTestTeam({ owner: 'Owner', member: 'Member' });

const avatar = () => new Blob([new Uint8Array(makePng())], { type: 'image/png' });

/** The error a call fails with (its code and status), or 'ok'. */
async function outcome(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof DojoError) return `${error.status} ${error.code}`;
    throw error;
  }
}

async function signUpWith(
  client: DojoClient,
  input: { email?: string; invitation?: string } = {},
): Promise<string> {
  return outcome(() =>
    client.auth.signUp({
      email: input.email ?? uniqueEmail('joiner'),
      password: 'correct horse battery',
      // Each joiner a name of their own: no two accounts may share one.
      displayName: `Joiner ${Math.random().toString(36).slice(2, 8)}`,
      thumbnail: avatar(),
      fileName: 'avatar.png',
      ...(input.invitation ? { invitation: input.invitation } : {}),
    }),
  );
}

const tokenOf = (url: string): string => new URL(url).searchParams.get('invitation') ?? '';

describe('roles', () => {
  it('makes the first account of a fresh install its owner (an admin) and later ones members', () => {
    expect(team.owner.user.role).toBe('admin');
    expect(team.member.user.role).toBe('member');
  });

  it('refuses every admin route to anonymous callers (401) and members (403); admins may', async () => {
    const anonymous = newClient(team.server.url);
    await anonymous.auth.whenReady();
    const calls: [string, (client: DojoClient) => Promise<unknown>][] = [
      ['list members', (client) => client.admin.listMembers()],
      ['change a role', (client) => client.admin.setRole(team.member.user.uid, 'member')],
      ['reactivate', (client) => client.admin.reactivate(team.member.user.uid)],
      ['reset link', (client) => client.admin.createPasswordReset(team.member.user.uid)],
      ['read the policy', (client) => client.admin.signupPolicy()],
      ['set the policy', (client) => client.admin.setSignupPolicy({ mode: 'open', domains: [] })],
      ['list invitations', (client) => client.admin.listInvitations()],
      ['create an invitation', (client) => client.admin.createInvitation({ maxUses: 1 })],
      ['revoke an invitation', (client) => client.admin.revokeInvitation('no-such-invitation')],
      ['deactivate', (client) => client.admin.deactivate('no-such-member')],
    ];
    for (const [what, call] of calls) {
      expect(await outcome(() => call(anonymous)), `${what}, anonymous`).toBe('401 unauthenticated');
      expect(await outcome(() => call(team.member.client)), `${what}, member`).toBe('403 forbidden');
    }
    for (const [what, call] of calls.slice(0, 8)) {
      expect(await outcome(() => call(team.owner.client)), `${what}, admin`).toBe('ok');
    }
    expect(await outcome(() => team.owner.client.admin.revokeInvitation('no-such-invitation'))).toBe(
      '404 not-found',
    );
    expect(await outcome(() => team.owner.client.admin.deactivate('no-such-member'))).toBe('404 not-found');
  });

  it('never lets the last admin be demoted, deactivated or deleted, not even by themself', async () => {
    const demoted = await errorOf(() => team.owner.client.admin.setRole(team.owner.user.uid, 'member'));
    expect([demoted.status, demoted.message]).toEqual([409, messages.lastAdmin]);
    const deactivated = await errorOf(() => team.owner.client.admin.deactivate(team.owner.user.uid));
    expect([deactivated.status, deactivated.message]).toEqual([403, messages.cannotDeactivateSelf]);
    const deleted = await errorOf(() => team.owner.client.account.deleteAccount(team.owner.password));
    expect([deleted.status, deleted.message]).toEqual([409, messages.lastAdmin]);
    const members = await team.owner.client.admin.listMembers({ search: 'Owner' });
    expect(members.members.find((entry) => entry.id === team.owner.user.uid)?.role).toBe('admin');
  });

  it('lets a member not promote themself, and an admin promote and demote others', async () => {
    expect(await outcome(() => team.member.client.admin.setRole(team.member.user.uid, 'admin'))).toBe(
      '403 forbidden',
    );
    const other = await signUpClient(team.server.url, 'Promoted');
    const promoted = await team.owner.client.admin.setRole(other.user.uid, 'admin');
    expect(promoted.role).toBe('admin');
    // The role travels with the session: the new admin may use admin routes at once.
    expect(await outcome(() => other.client.admin.listMembers())).toBe('ok');
    // With two admins, either may step down; then the one left is the last again.
    expect((await other.client.admin.setRole(other.user.uid, 'member')).role).toBe('member');
    expect(await outcome(() => other.client.admin.listMembers())).toBe('403 forbidden');
    other.client.close();
  });

  it('keeps one admin when two admins demote each other at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const first = await signUpClient(team.server.url, `First ${round}`);
      const second = await signUpClient(team.server.url, `Second ${round}`);
      await team.owner.client.admin.setRole(first.user.uid, 'admin');
      await team.owner.client.admin.setRole(second.user.uid, 'admin');
      // The owner steps down, so these two are the only admins.
      await team.owner.client.admin.setRole(team.owner.user.uid, 'member');
      const results = await Promise.all([
        outcome(() => first.client.admin.setRole(second.user.uid, 'member')),
        outcome(() => second.client.admin.setRole(first.user.uid, 'member')),
      ]);
      expect(
        results.filter((result) => result === 'ok'),
        JSON.stringify(results),
      ).toHaveLength(1);
      const page = await (results[0] === 'ok' ? first : second).client.admin.listMembers({ limit: 200 });
      const admins = page.members.filter((entry) => entry.role === 'admin' && entry.status === 'active');
      expect(admins).toHaveLength(1);
      // Back to the owner as the only admin for the next round and the other tests.
      const survivor = results[0] === 'ok' ? first : second;
      await survivor.client.admin.setRole(team.owner.user.uid, 'admin');
      await team.owner.client.admin.setRole(survivor.user.uid, 'member');
      first.client.close();
      second.client.close();
    }
  });
});

describe('who may sign up', () => {
  it('is open by default, as the spec has it', async () => {
    expect((await team.owner.client.access.options()).signupPolicy).toEqual({ mode: 'open', domains: [] });
  });

  it('refuses an uninvited signup under invitation only, says why and stores nothing', async () => {
    await team.owner.client.admin.setSignupPolicy({ mode: 'invitation', domains: [] });
    try {
      const blobsBefore = storedBlobFiles(team.server.dataDir).length;
      const email = uniqueEmail('uninvited');
      const refused = await errorOf(() =>
        newClient(team.server.url).auth.signUp({
          email,
          password: 'correct horse battery',
          displayName: 'Uninvited',
          thumbnail: avatar(),
        }),
      );
      expect([refused.status, refused.message]).toEqual([403, messages.signupInvitationOnly]);
      expect(storedBlobFiles(team.server.dataDir)).toHaveLength(blobsBefore);
      const login = await errorOf(() =>
        newClient(team.server.url).auth.logIn({ email, password: 'correct horse battery' }),
      );
      expect(login.code).toBe('wrong-credentials');
      expect((await newClient(team.server.url).access.options()).signupPolicy.mode).toBe('invitation');
    } finally {
      await team.owner.client.admin.setSignupPolicy({ mode: 'open', domains: [] });
    }
  });

  it('admits only the listed email domains under a domain policy', async () => {
    await team.owner.client.admin.setSignupPolicy({
      mode: 'domains',
      domains: ['Example.COM', '@team.test'],
    });
    try {
      expect((await team.owner.client.admin.signupPolicy()).domains).toEqual(['example.com', 'team.test']);
      expect(await signUpWith(newClient(team.server.url), { email: uniqueEmail('inside') })).toBe('ok');
      const outside = await errorOf(() =>
        newClient(team.server.url).auth.signUp({
          email: 'someone@elsewhere.org',
          password: 'correct horse battery',
          displayName: 'Outsider',
          thumbnail: avatar(),
        }),
      );
      expect([outside.status, outside.fields?.email]).toEqual([403, messages.signupDomainRefused]);
    } finally {
      await team.owner.client.admin.setSignupPolicy({ mode: 'open', domains: [] });
    }
  });

  it('refuses a bad policy with the field at fault and keeps the old one', async () => {
    const bad = await errorOf(() =>
      team.owner.client.admin.setSignupPolicy({ mode: 'domains', domains: [] }),
    );
    expect([bad.status, bad.fields?.domains]).toEqual([400, messages.signupDomainsRequired]);
    const notDomain = await errorOf(() =>
      team.owner.client.admin.setSignupPolicy({ mode: 'domains', domains: ['not a domain'] }),
    );
    expect(notDomain.fields?.domains).toBe(messages.signupDomainInvalid);
    expect((await team.owner.client.admin.signupPolicy()).mode).toBe('open');
  });
});

describe('invitations', () => {
  it('admits invited people under invitation only, up to its uses, and says when it is used up', async () => {
    await team.owner.client.admin.setSignupPolicy({ mode: 'invitation', domains: [] });
    try {
      const { invitation, url } = await team.owner.client.admin.createInvitation({
        maxUses: 2,
        expiresInDays: 3,
      });
      expect(invitation).toMatchObject({ maxUses: 2, uses: 0, status: 'open', email: null });
      expect(url).toMatch(/\/signup\?invitation=/);
      const token = tokenOf(url);
      expect((await newClient(team.server.url).access.checkInvitation(token)).email).toBeNull();

      expect(await signUpWith(newClient(team.server.url), { invitation: token })).toBe('ok');
      expect(await signUpWith(newClient(team.server.url), { invitation: token })).toBe('ok');
      const third = await errorOf(() => newClient(team.server.url).access.checkInvitation(token));
      expect([third.status, third.message]).toEqual([410, messages.invitationUsed]);
      expect(await signUpWith(newClient(team.server.url), { invitation: token })).toBe('410 gone');

      const listed = (await team.owner.client.admin.listInvitations()).find(
        (entry) => entry.id === invitation.id,
      );
      expect(listed).toMatchObject({ uses: 2, status: 'used' });
    } finally {
      await team.owner.client.admin.setSignupPolicy({ mode: 'open', domains: [] });
    }
  });

  it('lets exactly one of two signups racing for a single-use invitation in', async () => {
    const { url } = await team.owner.client.admin.createInvitation({ maxUses: 1 });
    const results = await Promise.all([
      signUpWith(newClient(team.server.url), { invitation: tokenOf(url) }),
      signUpWith(newClient(team.server.url), { invitation: tokenOf(url) }),
    ]);
    expect(results.sort()).toEqual(['410 gone', 'ok']);
  });

  it('binds an invitation to one address when asked', async () => {
    const email = uniqueEmail('bound');
    const { url } = await team.owner.client.admin.createInvitation({ email });
    expect((await newClient(team.server.url).access.checkInvitation(tokenOf(url))).email).toBe(email);
    const other = await errorOf(() =>
      newClient(team.server.url).auth.signUp({
        email: uniqueEmail('other'),
        password: 'correct horse battery',
        displayName: 'Other',
        thumbnail: avatar(),
        invitation: tokenOf(url),
      }),
    );
    expect([other.status, other.message]).toEqual([403, messages.invitationOtherEmail]);
    expect(
      await signUpWith(newClient(team.server.url), { email: email.toUpperCase(), invitation: tokenOf(url) }),
    ).toBe('ok');
  });

  it('says so for a revoked, an expired and an unknown link', async () => {
    const revoked = await team.owner.client.admin.createInvitation({});
    expect((await team.owner.client.admin.revokeInvitation(revoked.invitation.id)).status).toBe('revoked');
    const revokedCheck = await errorOf(() =>
      newClient(team.server.url).access.checkInvitation(tokenOf(revoked.url)),
    );
    expect([revokedCheck.status, revokedCheck.message]).toEqual([410, messages.invitationRevoked]);

    const expired = await team.owner.client.admin.createInvitation({});
    await expireLinks(team.server, 'invitations', 'id', expired.invitation.id);
    const expiredCheck = await errorOf(() =>
      newClient(team.server.url).access.checkInvitation(tokenOf(expired.url)),
    );
    expect([expiredCheck.status, expiredCheck.message]).toEqual([410, messages.invitationExpired]);
    expect(await signUpWith(newClient(team.server.url), { invitation: tokenOf(expired.url) })).toBe(
      '410 gone',
    );
    const listed = await team.owner.client.admin.listInvitations();
    expect(listed.find((entry) => entry.id === expired.invitation.id)?.status).toBe('expired');

    const unknown = await errorOf(() => newClient(team.server.url).access.checkInvitation('no-such-token'));
    expect([unknown.status, unknown.message]).toEqual([404, messages.invitationInvalid]);
  });

  it('refuses bad invitation settings with a message', async () => {
    const bad = await errorOf(() =>
      team.owner.client.admin.createInvitation({ maxUses: 0, expiresInDays: 400 }),
    );
    expect(bad.status).toBe(400);
    expect(bad.fields).toMatchObject({
      maxUses: messages.invitationUsesInvalid,
      expiresInDays: messages.invitationDaysInvalid,
    });
  });
});

describe('members', () => {
  it('pages through every member by name with a cursor and finds them by name or email', async () => {
    const tag = Math.random().toString(36).slice(2, 7);
    const made = await Promise.all(
      Array.from({ length: 7 }, (_, index) => signUpClient(team.server.url, `Paged ${tag} ${index}`)),
    );
    const seen: Member[] = [];
    let after: string | null = null;
    do {
      const page = await team.owner.client.admin.listMembers({ search: `paged ${tag}`, after, limit: 3 });
      expect(page.members.length).toBeLessThanOrEqual(3);
      seen.push(...page.members);
      after = page.nextCursor;
    } while (after);
    expect(seen.map((entry) => entry.displayName)).toEqual(made.map((_, index) => `Paged ${tag} ${index}`));
    expect(seen[0]).toMatchObject({ email: made[0]?.email, role: 'member', status: 'active', online: true });
    expect(seen[0]?.lastActiveAt).toEqual(expect.any(String));

    const byEmail = await team.owner.client.admin.listMembers({ search: made[3]?.email ?? '' });
    expect(byEmail.members.map((entry) => entry.id)).toEqual([made[3]?.user.uid]);
    const badCursor = await errorOf(() => team.owner.client.admin.listMembers({ after: 'garbage' }));
    expect(badCursor.status).toBe(400);
    for (const entry of made) entry.client.close();
  });

  it('deactivates a member: signed out live everywhere, no login, gone from lists, name kept on their work', async () => {
    const leaving = await signUpClient(team.server.url, `Leaving ${Math.random().toString(36).slice(2, 6)}`);
    const project = await createProjectAs(leaving, {
      name: 'Left behind',
      details: 'Still here after they go',
      assignedUserIds: [leaving.user.uid, team.member.user.uid],
    });
    const panel = new LiveRecorder<UserProfile>(team.member.client, {
      kind: 'query',
      collection: 'users',
      orderBy: { field: 'displayName', direction: 'asc' },
      limit: 1000,
    });
    await panel.until((docs) => docs.some((doc) => doc.id === leaving.user.uid));
    // The leaving member's own tab, live: its socket is told the session ended.
    const ownView = new LiveRecorder(leaving.client, { kind: 'doc', collection: 'projects', id: project.id });
    await ownView.until((docs) => docs.length === 1);
    const signedOut = new Promise<void>((resolve) =>
      leaving.client.auth.onAuthStateChanged((user) => {
        if (user === null) resolve();
      }),
    );

    const deactivated = await team.owner.client.admin.deactivate(leaving.user.uid);
    expect(deactivated.status).toBe('deactivated');
    await signedOut;
    await panel.until(
      (docs) => !docs.some((doc) => doc.id === leaving.user.uid),
      10_000,
      'user leaves panel',
    );

    const login = await errorOf(() =>
      newClient(team.server.url).auth.logIn({ email: leaving.email, password: leaving.password }),
    );
    expect([login.status, login.message]).toEqual([403, messages.accountDeactivated]);
    const wrongPassword = await errorOf(() =>
      newClient(team.server.url).auth.logIn({ email: leaving.email, password: 'not the password' }),
    );
    expect(wrongPassword.code).toBe('wrong-credentials');

    const assign = await errorOf(() =>
      createProjectAs(team.member, {
        name: 'Assign the gone',
        details: 'x',
        assignedUserIds: [leaving.user.uid],
      }),
    );
    expect(assign.fields?.assignedUserIds).toBe(messages.unknownAssignee);

    const kept = await team.member.client.projects.get(project.id);
    expect(kept.createdBy).toMatchObject({ id: leaving.user.uid, displayName: leaving.user.displayName });
    const listed = await team.owner.client.admin.listMembers({ search: leaving.user.displayName });
    expect(listed.members[0]).toMatchObject({ status: 'deactivated', online: false });

    expect((await team.owner.client.admin.reactivate(leaving.user.uid)).status).toBe('active');
    const back = newClient(team.server.url);
    expect((await back.auth.logIn({ email: leaving.email, password: leaving.password })).uid).toBe(
      leaving.user.uid,
    );
    await panel.until(
      (docs) => docs.some((doc) => doc.id === leaving.user.uid),
      10_000,
      'user back in panel',
    );
    panel.unsubscribe();
    back.close();
    leaving.client.close();
  });
});

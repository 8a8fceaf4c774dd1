import { describe, expect, it } from 'vitest';
import { messages } from '../../common';
import type { DojoClient } from '../../sdk';
import { errorOf, newClient, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { makePng, uniqueEmail } from '../../../test/support/fixtures';
import { useTestTeam } from '../../../test/support/test-team';

const team = useTestTeam({ owner: 'Owner' });

// docs/decisions/046-members-who-leave.md: the invitations and reset links an admin made stop working when
// that admin is made a member, deactivated or deleted; those of other admins keep working.

const signUp = (invitation: string) =>
  newClient(team.server.url).auth.signUp({
    email: uniqueEmail('joiner'),
    password: 'correct horse battery',
    displayName: `Joiner ${Math.random().toString(36).slice(2, 8)}`,
    thumbnail: new Blob([new Uint8Array(makePng())], { type: 'image/png' }),
    fileName: 'avatar.png',
    invitation,
  });

/** The links an admin hands out: a 1,000-use invitation and a reset link for a member. */
async function linksMadeBy(admin: DojoClient, member: SignedInClient) {
  const created = await admin.admin.createInvitation({ maxUses: 1000 });
  const reset = await admin.admin.createPasswordReset(member.user.uid);
  return {
    invitationId: created.invitation.id,
    invitation: new URL(created.url).searchParams.get('invitation')!,
    reset: new URL(reset.url).searchParams.get('token')!,
  };
}

const cases: [string, (admin: SignedInClient) => Promise<unknown>][] = [
  ['made a member', (admin) => team.owner.client.admin.setRole(admin.user.uid, 'member')],
  ['deactivated', (admin) => team.owner.client.admin.deactivate(admin.user.uid)],
  ['deleted', (admin) => admin.client.account.deleteAccount(admin.password)],
];

describe('links made by an admin who is no longer one', () => {
  it.each(cases)('stop working once that admin is %s', async (change, removeRole) => {
    const admin = await signUpClient(team.server.url, `Admin ${change}`);
    await team.owner.client.admin.setRole(admin.user.uid, 'admin');
    const [first, second] = [
      await signUpClient(team.server.url, `First of ${change}`),
      await signUpClient(team.server.url, `Second of ${change}`),
    ];
    const theirs = await linksMadeBy(admin.client, first);
    const owners = await linksMadeBy(team.owner.client, second);
    // Both work before: the invitation admits one, the reset link checks out.
    await signUp(theirs.invitation);
    await newClient(team.server.url).access.checkPasswordReset(theirs.reset);

    await removeRole(admin);

    const invitationCheck = await errorOf(() =>
      newClient(team.server.url).access.checkInvitation(theirs.invitation),
    );
    expect([invitationCheck.status, invitationCheck.message]).toEqual([410, messages.invitationRevoked]);
    expect((await errorOf(() => signUp(theirs.invitation))).status).toBe(410);
    expect(
      (await errorOf(() => newClient(team.server.url).access.checkPasswordReset(theirs.reset))).status,
    ).toBe(410);
    const reset = await errorOf(() =>
      newClient(team.server.url).access.resetPassword({
        token: theirs.reset,
        password: 'a new password here',
      }),
    );
    expect(reset.status).toBe(410);
    // The admins page lists it as revoked.
    const listed = (await team.owner.client.admin.listInvitations()).find(
      (row) => row.id === theirs.invitationId,
    );
    expect(listed?.status).toBe('revoked');

    // Another admin's links are untouched.
    await signUp(owners.invitation);
    await newClient(team.server.url).access.resetPassword({
      token: owners.reset,
      password: 'a new password here',
    });
  });

  it('leaves the links of an admin made admin again revoked, and theirs from then on working', async () => {
    const admin = await signUpClient(team.server.url, 'Admin twice');
    await team.owner.client.admin.setRole(admin.user.uid, 'admin');
    const member = await signUpClient(team.server.url, 'Member of Admin twice');
    const before = await linksMadeBy(admin.client, member);
    await team.owner.client.admin.setRole(admin.user.uid, 'member');
    await team.owner.client.admin.setRole(admin.user.uid, 'admin');
    expect((await errorOf(() => signUp(before.invitation))).status).toBe(410);
    // A role change ends the admin's sessions' role in cache, not the sessions: the same client goes on.
    const after = await linksMadeBy(admin.client, member);
    await signUp(after.invitation);
    await newClient(team.server.url).access.checkPasswordReset(after.reset);
  });
});

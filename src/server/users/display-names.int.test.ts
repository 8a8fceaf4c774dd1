import { describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { errorOf, newClient, signUpClient } from '../../../test/support/clients';
import { makePng, uniqueEmail } from '../../../test/support/fixtures';
import { openServerDatabase } from '../../../test/support/test-database';
import { useTestTeam } from '../../../test/support/test-team';

const team = useTestTeam({ admin: 'Team Admin', member: 'Straße Crew' });

// docs/decisions/046-members-who-leave.md: no member may go by another member's name, compared after NFKC,
// case folding and collapsing spaces, so that nobody can pose as the admin.

const signUpAs = (displayName: string) =>
  newClient(team.server.url).auth.signUp({
    email: uniqueEmail('lookalike'),
    password: 'correct horse battery',
    displayName,
    thumbnail: new Blob([new Uint8Array(makePng())], { type: 'image/png' }),
    fileName: 'avatar.png',
  });

const accountsNamed = async (displayName: string): Promise<number> => {
  const database = await openServerDatabase(team.server);
  try {
    const rows = await database.db
      .selectFrom('users')
      .select('id')
      .where('display_name', '=', displayName)
      .execute();
    return rows.length;
  } finally {
    await database.close();
  }
};

const lookalikes: [string, string][] = [
  ['the same name', 'Team Admin'],
  ['another case', 'team ADMIN'],
  ['spaces around and inside', '  Team    Admin '],
  ['full-width letters (NFKC)', 'Ｔｅａｍ Ａｄｍｉｎ'],
  ['a folded sharp s', 'STRASSE CREW'],
  ['the name deleted accounts are shown under', 'deleted USER'],
];

describe('display names', () => {
  it.each(lookalikes)(
    'refuses a signup with %s as a 409 on the field, creating nothing',
    async (_what, name) => {
      const error = await errorOf(() => signUpAs(name));
      expect([error.status, error.code, error.message]).toEqual([409, 'conflict', messages.displayNameTaken]);
      expect(error.fields).toEqual({ displayName: messages.displayNameTaken });
      expect(await accountsNamed(name.trim())).toBe(name.trim() === 'Team Admin' ? 1 : 0);
    },
  );

  it("refuses a profile change to another member's name, and keeps the old one", async () => {
    const error = await errorOf(() =>
      team.member.client.account.updateProfile({ displayName: 'TEAM admin' }),
    );
    expect([error.status, error.message]).toEqual([409, messages.displayNameTaken]);
    expect(error.fields).toEqual({ displayName: messages.displayNameTaken });
    expect(await accountsNamed('Straße Crew')).toBe(1);
  });

  it('lets a member write their own name differently, and frees a name once its account is deleted', async () => {
    expect(
      (await team.member.client.account.updateProfile({ displayName: 'STRASSE crew' })).displayName,
    ).toBe('STRASSE crew');
    const leaving = await signUpClient(team.server.url, 'Short Stay');
    await leaving.client.account.deleteAccount(leaving.password);
    expect((await signUpAs('short stay')).displayName).toBe('short stay');
  });

  it('lets exactly one of two signups racing for one name have it (the unique index)', async () => {
    const outcomes = await Promise.all(
      [0, 1].map((index) =>
        signUpAs(index === 0 ? 'Racing Name' : 'racing  name').then(
          () => 'created',
          (error: unknown) => (error as { code?: string }).code,
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(['conflict', 'created']);
  });
});

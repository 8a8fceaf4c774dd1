import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db/schema';

type InvitationRow = Selectable<Database['invitations']> & { creator_name: string };

export async function insertInvitation(
  db: Kysely<Database>,
  invitation: {
    id: string;
    tokenHash: string;
    email: string | null;
    maxUses: number;
    expiresAt: string;
    createdBy: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('invitations')
    .values({
      id: invitation.id,
      token_hash: invitation.tokenHash,
      email: invitation.email,
      max_uses: invitation.maxUses,
      uses: 0,
      expires_at: invitation.expiresAt,
      revoked_at: null,
      created_by: invitation.createdBy,
      created_at: invitation.now,
    })
    .execute();
}

const selectInvitations = (db: Kysely<Database>) =>
  db
    .selectFrom('invitations')
    .innerJoin('users', 'users.id', 'invitations.created_by')
    .selectAll('invitations')
    .select('users.display_name as creator_name');

/** The newest invitations first, at most `limit`. */
export async function listInvitations(db: Kysely<Database>, limit: number): Promise<InvitationRow[]> {
  return selectInvitations(db)
    .orderBy('invitations.created_at', 'desc')
    .orderBy('invitations.id')
    .limit(limit)
    .execute();
}

export async function findInvitation(db: Kysely<Database>, id: string): Promise<InvitationRow | null> {
  return (await selectInvitations(db).where('invitations.id', '=', id).executeTakeFirst()) ?? null;
}

export async function findInvitationByTokenHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<InvitationRow | null> {
  return (
    (await selectInvitations(db).where('invitations.token_hash', '=', tokenHash).executeTakeFirst()) ?? null
  );
}

/** Revokes invitations not revoked yet: one revoked earlier keeps the time it was. */
const revokeUnrevoked = (db: Kysely<Database>, now: string) =>
  db.updateTable('invitations').set({ revoked_at: now }).where('revoked_at', 'is', null);

export async function revokeInvitation(db: Kysely<Database>, id: string, now: string): Promise<void> {
  await revokeUnrevoked(db, now).where('id', '=', id).execute();
}

/**
 * Takes one use of the invitation if it is still open at `now`; false when it is not (used up, revoked
 * or expired). One statement, so two signups racing for the last use cannot both have it.
 */
export async function consumeInvitation(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ uses: sql`uses + 1` })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where(sql<boolean>`uses < max_uses`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every invitation `adminId` made that is not revoked yet (decision 046). */
export async function revokeInvitationsMadeBy(
  db: Kysely<Database>,
  adminId: string,
  now: string,
): Promise<void> {
  await revokeUnrevoked(db, now).where('created_by', '=', adminId).execute();
}

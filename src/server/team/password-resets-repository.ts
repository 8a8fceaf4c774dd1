import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';

export type PasswordResetRow = Selectable<Database['password_resets']>;

export async function insertPasswordReset(
  db: Kysely<Database>,
  reset: { tokenHash: string; userId: string; expiresAt: string; now: string; createdBy: string | null },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      token_hash: reset.tokenHash,
      user_id: reset.userId,
      expires_at: reset.expiresAt,
      used_at: null,
      created_at: reset.now,
      created_by: reset.createdBy,
    })
    .execute();
}

export async function findPasswordReset(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<PasswordResetRow | null> {
  return (
    (await db
      .selectFrom('password_resets')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst()) ?? null
  );
}

/** Marks the link used if it still can be; false when it was used or expired meanwhile (one use only). */
export async function consumePasswordReset(
  db: Kysely<Database>,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Voids links not used yet, as if used at `now`: a used one keeps the time it was. */
const voidUnused = (db: Kysely<Database>, now: string) =>
  db.updateTable('password_resets').set({ used_at: now }).where('used_at', 'is', null);

/** A new link makes the user's older unused ones void (only the newest email's link works). */
export async function voidPasswordResetsOf(db: Kysely<Database>, userId: string, now: string): Promise<void> {
  await voidUnused(db, now).where('user_id', '=', userId).execute();
}

/** Voids the unused links `adminId` made for members (decision 046); emailed ones have no maker. */
export async function voidPasswordResetsMadeBy(
  db: Kysely<Database>,
  adminId: string,
  now: string,
): Promise<void> {
  await voidUnused(db, now).where('created_by', '=', adminId).execute();
}

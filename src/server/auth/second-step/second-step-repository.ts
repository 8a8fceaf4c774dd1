import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** A password sign-in waiting for its second step (a `sign_in_flows` row of kind 'second-step'). */
export interface SecondStepFlowRow {
  userId: string;
  /** JSON: the TOTP secret being set up when the team requires a second step the account lacks. */
  data: string;
  attempts: number;
  expiresAt: string;
}

const FLOW_KIND = 'second-step';

export async function insertSecondStepFlow(
  db: Kysely<Database>,
  row: { idHash: string; userId: string; data: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sign_in_flows')
    .values({
      id_hash: row.idHash,
      kind: FLOW_KIND,
      user_id: row.userId,
      data: row.data,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** The flow if it exists and has not expired by `now`. */
export async function findSecondStepFlow(
  db: Kysely<Database>,
  idHash: string,
  now: string,
): Promise<SecondStepFlowRow | null> {
  const row = await db
    .selectFrom('sign_in_flows')
    .select(['user_id', 'data', 'attempts', 'expires_at'])
    .where('id_hash', '=', idHash)
    .where('kind', '=', FLOW_KIND)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row?.user_id) return null;
  return { userId: row.user_id, data: row.data, attempts: row.attempts, expiresAt: row.expires_at };
}

export async function updateSecondStepFlowData(
  db: Kysely<Database>,
  idHash: string,
  data: string,
): Promise<void> {
  await db
    .updateTable('sign_in_flows')
    .set({ data })
    .where('id_hash', '=', idHash)
    .where('kind', '=', FLOW_KIND)
    .execute();
}

/** Counts a wrong code; the new count, or null when the flow is gone (used or removed meanwhile). */
export async function countWrongCode(db: Kysely<Database>, idHash: string): Promise<number | null> {
  const row = await db
    .updateTable('sign_in_flows')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id_hash', '=', idHash)
    .where('kind', '=', FLOW_KIND)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? null;
}

/** Deletes the flow; false when another request used or removed it first (use once, on every instance). */
export async function deleteSecondStepFlow(db: Kysely<Database>, idHash: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sign_in_flows')
    .where('id_hash', '=', idHash)
    .where('kind', '=', FLOW_KIND)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Expired flows of every kind go with the next second step that starts; they are useless to anyone. */
export async function deleteExpiredSecondStepFlows(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom('sign_in_flows').where('kind', '=', FLOW_KIND).where('expires_at', '<=', now).execute();
}

export interface TotpFactorRow {
  secret: string;
  confirmedAt: string | null;
  lastStep: number | null;
}

export async function findTotpFactor(db: Kysely<Database>, userId: string): Promise<TotpFactorRow | null> {
  const row = await db
    .selectFrom('totp_factors')
    .select(['secret', 'confirmed_at', 'last_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    secret: row.secret,
    confirmedAt: row.confirmed_at,
    lastStep: row.last_step === null ? null : Number(row.last_step),
  };
}

/** A new, unconfirmed secret; replaces an unconfirmed one (a QR code asked for again). */
export async function putPendingTotpFactor(
  db: Kysely<Database>,
  userId: string,
  secret: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('totp_factors')
    .values({ user_id: userId, secret, confirmed_at: null, last_step: null, created_at: now })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ secret, confirmed_at: null, last_step: null, created_at: now })
        .where('totp_factors.confirmed_at', 'is', null),
    )
    .execute();
}

/** A confirmed factor with its first accepted step, replacing whatever the account had. */
export async function putConfirmedTotpFactor(
  db: Kysely<Database>,
  userId: string,
  secret: string,
  step: number,
  now: string,
): Promise<void> {
  await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
  await db
    .insertInto('totp_factors')
    .values({ user_id: userId, secret, confirmed_at: now, last_step: step, created_at: now })
    .execute();
}

/**
 * Records `step` as used if it is later than every step used before: false when this step (or a later one)
 * was already accepted, so one code signs in once even when two instances check it at the same moment.
 */
export async function claimTotpStep(
  db: Kysely<Database>,
  userId: string,
  step: number,
  confirmedAt: string | null,
): Promise<boolean> {
  const result = await db
    .updateTable('totp_factors')
    .set({ last_step: step, confirmed_at: confirmedAt ?? undefined })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTotpFactor(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  userId: string,
  codeHashes: readonly string[],
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codeHashes.map((codeHash) => ({ user_id: userId, code_hash: codeHash, used_at: null })))
    .execute();
}

export async function deleteRecoveryCodes(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

/** Marks an unused code used; false when there is no such unused code. */
export async function useRecoveryCode(
  db: Kysely<Database>,
  userId: string,
  codeHash: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function countUnusedRecoveryCodes(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A member's passkeys: here, below passkeys/, so the second step and the passkeys' own limit share it. */
export async function countPasskeys(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

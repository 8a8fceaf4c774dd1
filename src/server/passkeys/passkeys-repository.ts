import type { Kysely } from 'kysely';
import type { Database, SignInFlowKind } from '../db/schema';

/** A WebAuthn ceremony waiting for the browser's answer: a `sign_in_flows` row of a passkey kind. */
type PasskeyFlowKind = Extract<SignInFlowKind, 'passkey-registration' | 'passkey-sign-in'>;

export interface PasskeyRow {
  id: string;
  userId: string;
  name: string;
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export async function insertPasskeyFlow(
  db: Kysely<Database>,
  row: {
    idHash: string;
    kind: PasskeyFlowKind;
    userId: string | null;
    data: string;
    createdAt: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto('sign_in_flows')
    .values({
      id_hash: row.idHash,
      kind: row.kind,
      user_id: row.userId,
      data: row.data,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/**
 * Deletes the flow and answers what it held, if it was there, of this kind and user (null: a passkey
 * sign-in that names nobody yet) and unexpired. One statement: of two requests with the same flow, on
 * any instances, exactly one gets it, so each challenge is answered once.
 */
export async function takePasskeyFlow(
  db: Kysely<Database>,
  where: { idHash: string; kind: PasskeyFlowKind; userId: string | null; now: string },
): Promise<string | null> {
  const row = await db
    .deleteFrom('sign_in_flows')
    .where('id_hash', '=', where.idHash)
    .where('kind', '=', where.kind)
    .where('user_id', where.userId === null ? 'is' : '=', where.userId)
    .where('expires_at', '>', where.now)
    .returning('data')
    .executeTakeFirst();
  return row?.data ?? null;
}

/** Challenges nobody answered are of no use to anyone; the next ceremony that starts clears them. */
export async function deleteExpiredPasskeyFlows(db: Kysely<Database>, now: string): Promise<void> {
  await db
    .deleteFrom('sign_in_flows')
    .where('kind', 'in', ['passkey-registration', 'passkey-sign-in'])
    .where('expires_at', '<=', now)
    .execute();
}

const passkeyColumns = [
  'id',
  'user_id',
  'name',
  'public_key',
  'counter',
  'transports',
  'created_at',
  'last_used_at',
] as const;

function passkeyOf(row: {
  id: string;
  user_id: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string;
  created_at: string;
  last_used_at: string | null;
}): PasskeyRow {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: JSON.parse(row.transports) as string[],
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

/** A member's passkeys, oldest first. */
export async function listPasskeysOf(db: Kysely<Database>, userId: string): Promise<PasskeyRow[]> {
  const rows = await db
    .selectFrom('passkeys')
    .select(passkeyColumns)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(passkeyOf);
}

/** The credential an assertion names, whoever holds it, if the holder's account is active. */
export async function findActivePasskey(db: Kysely<Database>, id: string): Promise<PasskeyRow | null> {
  const row = await db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.user_id')
    .select(passkeyColumns.map((column) => `passkeys.${column}` as const))
    .where('passkeys.id', '=', id)
    .where('users.status', '=', 'active')
    .executeTakeFirst();
  return row ? passkeyOf(row) : null;
}

export async function insertPasskey(
  db: Kysely<Database>,
  passkey: Omit<PasskeyRow, 'lastUsedAt'>,
): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({
      id: passkey.id,
      user_id: passkey.userId,
      name: passkey.name,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      created_at: passkey.createdAt,
      last_used_at: null,
    })
    .execute();
}

/** Renames one of the member's passkeys; false when they have none with this id. */
export async function renamePasskey(
  db: Kysely<Database>,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes one of the member's passkeys; false when they have none with this id. */
export async function deletePasskey(db: Kysely<Database>, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Records a verified sign-in: the authenticator's new counter and when. Only if the stored counter is
 * still the one the check was made against, so two sign-ins racing with one counter value (a cloned
 * authenticator, a replay) cannot both pass; false then.
 */
export async function recordPasskeyUse(
  db: Kysely<Database>,
  use: { id: string; checkedCounter: number; newCounter: number; now: string },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: use.newCounter, last_used_at: use.now })
    .where('id', '=', use.id)
    .where('counter', '=', use.checkedCounter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

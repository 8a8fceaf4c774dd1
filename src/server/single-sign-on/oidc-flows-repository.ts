import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** An OpenID redirect in progress, as `sign_in_flows.data` keeps it (kind 'oidc'). */
export interface OidcFlowData {
  provider: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  invitation: string | null;
  setup: string | null;
}

export async function insertOidcFlow(
  db: Kysely<Database>,
  flow: { idHash: string; data: OidcFlowData; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sign_in_flows')
    .values({
      id_hash: flow.idHash,
      kind: 'oidc',
      user_id: null,
      data: JSON.stringify(flow.data),
      created_at: flow.createdAt,
      expires_at: flow.expiresAt,
    })
    .execute();
}

/**
 * Deletes the flow and returns it if it was still there and not expired: one statement, so of two callbacks
 * with the same flow (a replay, another instance) exactly one gets it.
 */
export async function takeOidcFlow(
  db: Kysely<Database>,
  idHash: string,
  now: string,
): Promise<OidcFlowData | null> {
  const row = await db
    .deleteFrom('sign_in_flows')
    .where('id_hash', '=', idHash)
    .where('kind', '=', 'oidc')
    .returning(['data', 'expires_at'])
    .executeTakeFirst();
  if (!row || row.expires_at <= now) return null;
  return JSON.parse(row.data) as OidcFlowData;
}

/** Flows nobody came back for: removed as new ones start, so the table stays small without a timer. */
export async function deleteExpiredOidcFlows(db: Kysely<Database>, now: string): Promise<void> {
  await db.deleteFrom('sign_in_flows').where('kind', '=', 'oidc').where('expires_at', '<=', now).execute();
}

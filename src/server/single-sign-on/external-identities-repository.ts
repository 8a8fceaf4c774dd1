import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The account a provider's subject signs in to, if it signed in before. */
export async function findIdentityUser(
  db: Kysely<Database>,
  provider: string,
  subject: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('external_identities')
    .select('user_id')
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

export async function insertIdentity(
  db: Kysely<Database>,
  identity: { provider: string; subject: string; userId: string; email: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('external_identities')
    .values({
      provider: identity.provider,
      subject: identity.subject,
      user_id: identity.userId,
      email: identity.email,
      created_at: identity.now,
      last_used_at: identity.now,
    })
    .execute();
}

export async function touchIdentity(
  db: Kysely<Database>,
  identity: { provider: string; subject: string; email: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('external_identities')
    .set({ email: identity.email, last_used_at: identity.now })
    .where('provider', '=', identity.provider)
    .where('subject', '=', identity.subject)
    .execute();
}

/** An identity whose account was deleted: it may start afresh (the deleted account keeps what it wrote). */
export async function deleteIdentity(db: Kysely<Database>, provider: string, subject: string): Promise<void> {
  await db
    .deleteFrom('external_identities')
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .execute();
}

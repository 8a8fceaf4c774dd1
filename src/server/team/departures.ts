import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { dropQueuedEmails } from '../notifications/email-repository';
import { revokeInvitationsMadeBy } from './invitations-repository';
import { voidPasswordResetsMadeBy } from './password-resets-repository';

/**
 * Inside the transaction that takes an admin's role away (made a member, deactivated, deleted): the
 * invitations and reset links they made stop working with it (docs/decisions/046-members-who-leave.md).
 */
export async function endLinksMadeBy(trx: Kysely<Database>, adminId: string, now: string): Promise<void> {
  await revokeInvitationsMadeBy(trx, adminId, now);
  await voidPasswordResetsMadeBy(trx, adminId, now);
}

/**
 * Inside the transaction that deactivates or deletes a member: their queued emails are dropped, and what
 * they made as an admin stops working.
 */
export async function endMembership(trx: Kysely<Database>, userId: string, now: string): Promise<void> {
  await dropQueuedEmails(trx, userId, now);
  await endLinksMadeBy(trx, userId, now);
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Whether a signup may go ahead, and what it uses up in the signup's transaction. */
export interface Admission {
  invitationId: string | null;
  /** The invitation names one email address: a provider sign-in may use it only with that address verified. */
  invitationForEmail?: boolean;
  /** The hash of the setup link's token (first admin under an invitation-only policy). */
  setupTokenHash?: string;
}

/**
 * Who may create an account, as signup asks it. The team's sign-up policy answers (with invitations and
 * setup links, team/signup-policy-service.ts) and the composition root wires it, so auth/ imports nothing
 * of team/, which builds on auth (docs/architecture.md#import-rules).
 */
export interface SignupGate {
  /** Throws an error that says why the signup is refused; nothing is written. */
  admit(email: string, invitationToken: string | undefined, setupToken?: string): Promise<Admission>;
  /** Inside the signup's transaction: uses up what admitted it; throws if that was used up meanwhile. */
  consume(trx: Kysely<Database>, admission: Admission): Promise<void>;
}

import type { Role } from '../../common';

/**
 * Whether password login and signup are allowed at all: single sign-on may be required for everyone but
 * admins (single-sign-on/sso-policy.ts answers; the composition root wires it, as with SignupGate).
 */
export interface PasswordSignInGate {
  /** Throws a 403 naming the way to sign in; `role` is null for a signup (not an account yet). */
  check(role: Role | null): Promise<void>;
}

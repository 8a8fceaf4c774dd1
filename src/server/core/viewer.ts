import type { AuthUser } from '../../common';

/**
 * Who is making a request, and through which session. Services take it as their caller; how it is read
 * from a request (cookie or id token) is the auth feature's business (`auth/viewer.ts`), so a service never
 * depends on the HTTP layer, not even as a type.
 */
export interface Viewer extends AuthUser {
  sessionHash: string;
  /** True when the request proved itself with an id token rather than the cookie. */
  viaToken: boolean;
  /** When the session ends (ms since the epoch); a live socket is closed then. */
  sessionExpiresAt: number;
  /** When the id token the request carried expires (ms since the epoch); only when `viaToken`. */
  tokenExpiresAt?: number;
}

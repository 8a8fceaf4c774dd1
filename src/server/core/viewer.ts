import type { AuthUser } from '../../common';
import type { ApiTokenScope } from '../../common/api-tokens';

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
  /**
   * Set when the request proved itself with a personal API token (`sessionHash` is then the token's): its
   * public id and scope. A 'read' token is refused every write, and no token may manage the account
   * (docs/decisions/063-personal-api-tokens.md).
   */
  apiToken?: { id: string; scope: ApiTokenScope };
}

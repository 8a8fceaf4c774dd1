import type { ErrorCode } from './errors';

/**
 * The live-data protocol over one WebSocket per tab at `/live` (docs/api.md has examples).
 * Client → server messages are validated with the schemas in live-protocol-schemas.ts; server → client
 * ones are typed only. This module has no zod, so the dashboard can import it without loading zod.
 */
export const LIVE_PATH = '/live';

/** Close codes of a live socket besides the standard ones (1001 shutting down, 1009 message too big). */
export const LIVE_CLOSE_CODES = {
  /** The session behind the socket ended (logout on any instance, or its 30 days ran out); sign in again. */
  signedOut: 4001,
  /** Refused: the session or the user already holds as many sockets as the server allows. */
  tooManySockets: 4008,
  /** The id token the socket was opened with expired (its session may live on); reconnect with a fresh one. */
  tokenExpired: 4401,
} as const;

type LiveChangeType = 'added' | 'modified' | 'removed';

export interface LiveDoc {
  id: string;
  [field: string]: unknown;
}

export interface LiveChange<T extends LiveDoc = LiveDoc> {
  type: LiveChangeType;
  doc: T;
  /** For added and modified docs: the doc's position in the new result. */
  newIndex?: number;
}

export type LiveServerMessage =
  /** Sent once after the socket is accepted. */
  | { type: 'welcome'; uid: string }
  /** The full current result of a subscription; replaces whatever the client held. */
  | { type: 'snapshot'; id: string; docs: LiveDoc[] }
  /** Changes after a commit, in order; applying them to the last snapshot gives the new result. */
  | { type: 'changes'; id: string; changes: LiveChange[] }
  /** A subscription failed (bad query, no permission); it is closed. */
  | { type: 'error'; id?: string; code: ErrorCode; message: string }
  /** The session behind this socket ended (logout in another tab, expiry). */
  | { type: 'signed-out' };

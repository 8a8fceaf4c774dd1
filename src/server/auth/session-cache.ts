import { forgetOnChange, type ChangeBus } from '../db/change-bus';
import type { LiveSession } from './sessions-repository';

/**
 * How long a looked-up session is trusted without asking the database again. Every session end this
 * instance makes drops the entry at once, and every end or profile change on another instance arrives by
 * the change bus (PostgreSQL NOTIFY, milliseconds) and drops it there; this bound only covers a
 * notification that never arrives (the LISTEN connection broke and the resync is pending).
 */
const SESSION_CACHE_TTL_MS = 5000;
/** Sessions remembered at once (≈ 0.3 KiB each); the oldest entry goes first beyond this. */
const SESSION_CACHE_CAPACITY = 10_000;

interface Entry {
  session: LiveSession;
  expiresAtMs: number;
  cachedUntil: number;
}

/**
 * Recently seen live sessions by token hash, so an active user's requests do not each read the
 * `sessions` row and its user (docs/decisions/016-request-path-cost.md). Only found sessions are kept;
 * an unknown token always asks the database.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a lookup that raced one is not stored. */
  private generation = 0;

  constructor(
    bus: ChangeBus,
    private readonly options: { ttlMs: number; capacity: number } = {
      ttlMs: SESSION_CACHE_TTL_MS,
      capacity: SESSION_CACHE_CAPACITY,
    },
  ) {
    forgetOnChange(bus, {
      forget: (change) => {
        if (change.collection === 'sessions') this.forget(change.id);
        // A profile change (not a presence flag): the viewer carries the user's name and photo.
        else if (change.collection === 'users' && change.scope === undefined) this.forgetUser(change.id);
      },
      forgetAll: () => this.clear(),
    });
  }

  /** The session from cache while it is fresh and not expired, else from `load` (and cached). */
  async find(tokenHash: string, load: () => Promise<LiveSession | null>): Promise<LiveSession | null> {
    const now = Date.now();
    const entry = this.entries.get(tokenHash);
    if (entry) {
      if (now < entry.cachedUntil && now < entry.expiresAtMs) return entry.session;
      this.entries.delete(tokenHash);
    }
    const generation = this.generation;
    const session = await load();
    if (session && generation === this.generation) {
      if (this.entries.size >= this.options.capacity) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(tokenHash, {
        session,
        expiresAtMs: Date.parse(session.expiresAt),
        cachedUntil: now + this.options.ttlMs,
      });
    }
    return session;
  }

  /** Called when this instance ends a session, before anyone is told it ended. */
  forget(tokenHash: string): void {
    this.generation += 1;
    this.entries.delete(tokenHash);
  }

  /** Called when this instance changed the user's row (role, status, profile), before anyone is told. */
  forgetUser(uid: string): void {
    this.generation += 1;
    for (const [tokenHash, entry] of this.entries) {
      if (entry.session.uid === uid) this.entries.delete(tokenHash);
    }
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}

import type { Kysely } from 'kysely';
import type { Logger } from '../core/logger';
import type { ChangeBus } from '../db/change-bus';
import type { Database } from '../db/schema';
import { UnitOfWork } from '../db/unit-of-work';

/** What a service that keeps rows fresh on an instance is built from (presence, who is looking). */
export interface FreshRowsDeps {
  db: Kysely<Database>;
  changes: ChangeBus;
  instanceId: string;
  graceMs: number;
  log: Logger;
}

/**
 * The rhythm of rows an instance keeps fresh while something lasts on it: a connected session (presence,
 * docs/decisions/005-presence.md) or an open project (docs/decisions/027-mentions-and-who-is-looking.md).
 * The instance refreshes its own rows every quarter of the grace period; a row counts while it is fresh (half
 * the grace period), and every instance sweeps the stale ones, so a row whose tab closed or whose instance
 * died goes within three quarters of the grace period. What refreshing and sweeping write is the caller's.
 */
export class FreshRows {
  /** How long a row counts after its last refresh. */
  private readonly freshMs: number;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly graceMs: number) {
    this.freshMs = Math.floor(graceMs / 2);
  }

  /**
   * Calls `refreshAndSweep` every quarter of the grace period (250 ms at the least) until `stop`. It must
   * handle its own failures. The timer never keeps the process alive.
   */
  start(refreshAndSweep: () => void): void {
    const interval = Math.max(250, Math.floor(this.graceMs / 4));
    this.timer = setInterval(refreshAndSweep, interval);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The oldest refresh time (ISO 8601) that still counts as fresh at `now`. */
  freshSince(now = Date.now()): string {
    return new Date(now - this.freshMs).toISOString();
  }
}

/**
 * What a service that keeps rows fresh on this instance (presence, who is looking) builds on: the rhythm
 * of its rows and the unit of work its writes go through.
 */
export abstract class FreshRowsService {
  protected readonly rows: FreshRows;
  protected readonly writes: UnitOfWork;

  constructor(protected readonly deps: FreshRowsDeps) {
    this.rows = new FreshRows(deps.graceMs);
    this.writes = new UnitOfWork({ db: deps.db, changes: deps.changes });
  }
}

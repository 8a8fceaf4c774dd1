import type { Kysely } from 'kysely';
import { SESSION_TOUCH_INTERVAL_MS } from '../../common';
import type { Database } from '../db/schema';
import type { Logger } from '../core/logger';
import { touchUserActivity } from '../users/users-repository';
import { touchSession, type LiveSession } from './sessions-repository';

/**
 * Records when sessions and their users were last active (the settings screen's sessions, the members
 * screen's last activity). A session read from the database that was not recorded for
 * SESSION_TOUCH_INTERVAL_MS is recorded now, off the request's path: a busy user costs one write per
 * interval, not one per request, and a failed write only leaves the time a little older.
 */
export class SessionActivity {
  constructor(private readonly deps: { db: Kysely<Database>; log: Logger }) {}

  seen(session: LiveSession, now: string): void {
    if (session.lastSeenAt && Date.parse(now) - Date.parse(session.lastSeenAt) < SESSION_TOUCH_INTERVAL_MS)
      return;
    session.lastSeenAt = now;
    const { db, log } = this.deps;
    Promise.all([touchSession(db, session.tokenHash, now), touchUserActivity(db, session.uid, now)]).catch(
      (error: unknown) => log.warn({ err: error }, 'recording session activity failed'),
    );
  }
}

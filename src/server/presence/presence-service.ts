import type { Viewer } from '../core/viewer';
import { nowIso } from '../core/time';
import {
  deleteLivePresenceOfSession,
  deleteLivePresenceSeenBefore,
  hasFreshLivePresence,
  markStaleUsersOffline,
  markUserOffline,
  markUserOnline,
  touchLivePresence,
  upsertLivePresence,
} from './presence-repository';
import type { Change } from '../db/change-bus';
import { FreshRowsService } from '../live/fresh-rows';

/**
 * Presence beyond the spec (docs/product-spec.md#flaw-6): a user is online while at least one of their tabs holds
 * a live socket on any instance. Each instance keeps one `live_presence` row per connected session and
 * refreshes it; a row counts as fresh for half the grace period. Users whose rows all went stale (tab
 * closed, crash, lost network) and who have not just logged in are marked offline by a sweep, so they go
 * offline between half and three quarters of the grace period after the last tab disappears.
 */
export class PresenceService extends FreshRowsService {
  private readonly localSessions = new Map<string, { userId: string; sockets: number }>();
  start(): void {
    this.rows.start(() => {
      this.tick().catch((error: unknown) => this.deps.log.error({ err: error }, 'presence tick failed'));
    });
  }

  async stop(): Promise<void> {
    this.rows.stop();
  }

  /** A socket opened: keep the session's row fresh and mark the user online. */
  async connectionOpened(viewer: Viewer): Promise<void> {
    const local = this.localSessions.get(viewer.sessionHash);
    if (local) {
      local.sockets += 1;
      return;
    }
    this.localSessions.set(viewer.sessionHash, { userId: viewer.uid, sockets: 1 });
    const now = nowIso();
    await upsertLivePresence(this.deps.db, {
      instanceId: this.deps.instanceId,
      sessionHash: viewer.sessionHash,
      userId: viewer.uid,
      now,
    });
    await this.markOnline(viewer.uid, now);
  }

  /** A socket closed: once a session has none left here, its row stops being refreshed and goes stale. */
  async connectionClosed(viewer: Viewer): Promise<void> {
    const local = this.localSessions.get(viewer.sessionHash);
    if (!local) return;
    local.sockets -= 1;
    if (local.sockets > 0) return;
    this.localSessions.delete(viewer.sessionHash);
    await touchLivePresence(this.deps.db, this.deps.instanceId, [viewer.sessionHash], nowIso());
  }

  /** Marks the user online (login, first socket); publishes only when that changes anything. */
  async markOnline(userId: string, now = nowIso()): Promise<void> {
    await this.writes.runWithoutTransaction(async (db, write) => {
      if (await markUserOnline(db, userId, now)) write.changed(presenceChange(userId));
    });
  }

  /**
   * Logout: the session's rows go at once, and the user goes offline unless another session of theirs
   * is still connected somewhere (another browser).
   */
  async sessionEnded(viewer: Viewer): Promise<void> {
    this.localSessions.delete(viewer.sessionHash);
    await this.writes.runWithoutTransaction(async (db, write) => {
      await deleteLivePresenceOfSession(db, viewer.sessionHash);
      if (await hasFreshLivePresence(db, viewer.uid, this.rows.freshSince())) return;
      if (await markUserOffline(db, viewer.uid, nowIso())) write.changed(presenceChange(viewer.uid));
    });
  }

  /** Refresh this instance's rows, then mark offline every online user without a fresh row. */
  async tick(): Promise<void> {
    const { instanceId } = this.deps;
    const now = Date.now();
    await this.writes.runWithoutTransaction(async (db, write) => {
      await touchLivePresence(db, instanceId, [...this.localSessions.keys()], new Date(now).toISOString());
      const gone = await markStaleUsersOffline(db, this.rows.freshSince(now), new Date(now).toISOString());
      // Rows stale for a whole grace period belong to closed tabs or dead instances.
      await deleteLivePresenceSeenBefore(db, new Date(now - this.deps.graceMs * 2).toISOString());
      write.changed(...gone.map(presenceChange));
    });
  }
}

/** Only a user's `online` flag changed, which no project list shows. */
const presenceChange = (userId: string): Change => ({ collection: 'users', id: userId, scope: 'presence' });

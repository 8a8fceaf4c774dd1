import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/schema';
import { nowIso } from '../shared/time';
import type { ChangeBus } from '../live/change-bus';

/**
 * Presence beyond the spec (docs/product-spec.md#flaw-6): a user is online while at least one of their tabs holds
 * a live socket on any instance. Each instance keeps one `live_presence` row per connected session and
 * refreshes it; a row counts as fresh for half the grace period. Users whose rows all went stale (tab
 * closed, crash, lost network) and who have not just logged in are marked offline by a sweep, so they go
 * offline between half and three quarters of the grace period after the last tab disappears.
 */
export class PresenceService {
  private readonly localSessions = new Map<string, { userId: string; sockets: number }>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly freshMs: number;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      changes: ChangeBus;
      instanceId: string;
      graceMs: number;
      log: FastifyBaseLogger;
    },
  ) {
    this.freshMs = Math.floor(deps.graceMs / 2);
  }

  start(): void {
    const interval = Math.max(250, Math.floor(this.deps.graceMs / 4));
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.deps.log.error({ err: error }, 'presence tick failed'));
    }, interval);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
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
    const { db } = this.deps;
    await db
      .insertInto('live_presence')
      .values({
        instance_id: this.deps.instanceId,
        session_hash: viewer.sessionHash,
        user_id: viewer.uid,
        last_seen_at: now,
      })
      .onConflict((conflict) =>
        conflict.columns(['instance_id', 'session_hash']).doUpdateSet({ last_seen_at: now }),
      )
      .execute();
    await this.markOnline(viewer.uid, now);
  }

  /** A socket closed: once a session has none left here, its row stops being refreshed and goes stale. */
  async connectionClosed(viewer: Viewer): Promise<void> {
    const local = this.localSessions.get(viewer.sessionHash);
    if (!local) return;
    local.sockets -= 1;
    if (local.sockets > 0) return;
    this.localSessions.delete(viewer.sessionHash);
    await this.deps.db
      .updateTable('live_presence')
      .set({ last_seen_at: nowIso() })
      .where('instance_id', '=', this.deps.instanceId)
      .where('session_hash', '=', viewer.sessionHash)
      .execute();
  }

  /** Marks the user online (login, first socket); publishes only when that changes anything. */
  async markOnline(userId: string, now = nowIso()): Promise<void> {
    const { db } = this.deps;
    const before = await db.selectFrom('users').select('online').where('id', '=', userId).executeTakeFirst();
    // updated_at is touched even when already online: it protects a fresh login from the sweep.
    await db.updateTable('users').set({ online: 1, updated_at: now }).where('id', '=', userId).execute();
    if (before && before.online !== 1)
      await this.deps.changes.publish([{ collection: 'users', id: userId, scope: 'presence' }]);
  }

  /**
   * Logout: the session's rows go at once, and the user goes offline unless another session of theirs
   * is still connected somewhere (another browser).
   */
  async sessionEnded(viewer: Viewer): Promise<void> {
    const { db } = this.deps;
    this.localSessions.delete(viewer.sessionHash);
    await db.deleteFrom('live_presence').where('session_hash', '=', viewer.sessionHash).execute();
    const stillConnected = await db
      .selectFrom('live_presence')
      .select('user_id')
      .where('user_id', '=', viewer.uid)
      .where('last_seen_at', '>=', new Date(Date.now() - this.freshMs).toISOString())
      .executeTakeFirst();
    if (stillConnected) return;
    const changed = await db
      .updateTable('users')
      .set({ online: 0, updated_at: nowIso() })
      .where('id', '=', viewer.uid)
      .where('online', '=', 1)
      .returning('id')
      .execute();
    if (changed.length > 0)
      await this.deps.changes.publish([{ collection: 'users', id: viewer.uid, scope: 'presence' }]);
  }

  /** Refresh this instance's rows, then mark offline every online user without a fresh row. */
  async tick(): Promise<void> {
    const { db, instanceId } = this.deps;
    const now = Date.now();
    const sessions = [...this.localSessions.keys()];
    // Chunked: both engines cap the number of bound parameters per statement.
    for (let start = 0; start < sessions.length; start += 500) {
      await db
        .updateTable('live_presence')
        .set({ last_seen_at: new Date(now).toISOString() })
        .where('instance_id', '=', instanceId)
        .where('session_hash', 'in', sessions.slice(start, start + 500))
        .execute();
    }
    const freshSince = new Date(now - this.freshMs).toISOString();
    const gone = await db
      .updateTable('users')
      .set({ online: 0, updated_at: new Date(now).toISOString() })
      .where('online', '=', 1)
      .where('updated_at', '<', freshSince)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('live_presence')
              .select('live_presence.user_id')
              .whereRef('live_presence.user_id', '=', 'users.id')
              .where('live_presence.last_seen_at', '>=', freshSince),
          ),
        ),
      )
      .returning('id')
      .execute();
    // Rows stale for a whole grace period belong to closed tabs or dead instances.
    await db
      .deleteFrom('live_presence')
      .where('last_seen_at', '<', new Date(now - this.deps.graceMs * 2).toISOString())
      .execute();
    if (gone.length > 0)
      await this.deps.changes.publish(
        gone.map(({ id }) => ({ collection: 'users' as const, id, scope: 'presence' as const })),
      );
  }
}

import { messages, type LiveQuery, type LiveTarget, type ProjectViewer } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Change } from '../db/change-bus';
import { FreshRowsService } from '../live/fresh-rows';
import type { LiveSource } from '../live/live-sources';
import { invalidArgument } from '../core/app-error';
import { nowIso } from '../core/time';
import {
  deleteViewing,
  deleteViewingsSeenBefore,
  insertViewing,
  listProjectViewers,
  touchViewings,
} from './project-viewers-repository';

/** The project a `project_viewers` query is about: it must name exactly one (`projectId ==`). */
function projectIdOf(target: LiveTarget): string | null {
  if (target.kind !== 'query' || target.collection !== 'project_viewers') return null;
  const [clause, ...rest] = target.where ?? [];
  if (!clause || rest.length > 0 || clause.field !== 'projectId' || clause.op !== '==') return null;
  return typeof clause.value === 'string' ? clause.value : null;
}

const changeOf = (projectId: string, userId: string): Change => ({
  collection: 'project_viewers',
  id: userId,
  after: { projectId },
});

/**
 * Who is looking at a project (docs/decisions/027-mentions-and-who-is-looking.md), on the pattern of
 * presence (docs/decisions/005-presence.md): subscribing to a project's `project_viewers` query is looking
 * at it. Each such subscription on this instance has a row, written when it starts, deleted when it ends
 * (unsubscribe or socket closed: gone at once everywhere) and refreshed every quarter of the grace period
 * while it lasts. Rows count while fresh (half the grace period); every instance sweeps stale ones, so a
 * dead instance's viewers leave within three quarters of the grace period.
 */
export class ProjectViewersService extends FreshRowsService {
  /** This instance's viewings by key; writes for one key run in order through `queue`. */
  private readonly local = new Map<string, { projectId: string; userId: string }>();
  private queue: Promise<void> = Promise.resolve();
  start(): void {
    this.rows.start(() => this.run(() => this.tick()));
  }

  async stop(): Promise<void> {
    this.rows.stop();
    const keys = [...this.local.keys()];
    for (const key of keys) this.subscriptionEnded(key);
    await this.queue;
  }

  /** A live subscription started; when it is a project's viewers query, its subscriber is looking. */
  subscriptionStarted(key: string, viewer: Viewer, target: LiveTarget): void {
    const projectId = projectIdOf(target);
    if (projectId === null) return;
    const viewing = { projectId, userId: viewer.uid };
    this.local.set(key, viewing);
    this.run(async () => {
      // Ended before this ran: nothing to write.
      if (this.local.get(key) !== viewing) return;
      const row = { instanceId: this.deps.instanceId, viewingId: key, ...viewing };
      await this.writes.runWithoutTransaction(async (db, write) => {
        await insertViewing(db, row, nowIso());
        write.changed(changeOf(projectId, viewer.uid));
      });
    });
  }

  subscriptionEnded(key: string): void {
    const viewing = this.local.get(key);
    if (!viewing) return;
    this.local.delete(key);
    this.run(async () => {
      await this.writes.runWithoutTransaction(async (db, write) => {
        await deleteViewing(db, this.deps.instanceId, key);
        write.changed(changeOf(viewing.projectId, viewing.userId));
      });
    });
  }

  /** Refresh this instance's rows, then drop every stale row, whoever wrote it, and tell its watchers. */
  async tick(): Promise<void> {
    const { instanceId } = this.deps;
    const now = Date.now();
    await this.writes.runWithoutTransaction(async (db, write) => {
      await touchViewings(db, instanceId, [...this.local.keys()], new Date(now).toISOString());
      const gone = await deleteViewingsSeenBefore(db, this.rows.freshSince(now));
      write.changed(...gone.map(({ projectId, userId }) => changeOf(projectId, userId)));
    });
  }

  /**
   * The one read rule of who is looking, which the live source passes for every subscriber and `list` for
   * every read (docs/decisions/049-server-folder-layers-and-one-read-rule.md): every signed-in member may
   * see who has any project open, as they may read every project.
   */
  authorizeRead(_viewer: Viewer): void {}

  /** The members with the project open, by name. */
  async list(viewer: Viewer, projectId: string): Promise<ProjectViewer[]> {
    this.authorizeRead(viewer);
    const users = await listProjectViewers(this.deps.db, projectId, this.rows.freshSince());
    return users.map((user) => ({ ...user, projectId }));
  }

  liveSource(): LiveSource {
    const viewersOf = (query: LiveQuery): string => {
      const projectId = projectIdOf(query);
      if (projectId === null)
        throw invalidArgument(
          { where: 'Ask for the viewers of one project (projectId ==).' },
          messages.badRequest,
        );
      return projectId;
    };
    return {
      authorize: (_target, viewer) => this.authorizeRead(viewer),
      resultsBelongTo: 'everyone',
      query: (query, viewer) => this.list(viewer, viewersOf(query)),
      // A change names a member: whether they still look at some project is answered by the queries.
      find: async () => null,
    };
  }

  private run(task: () => Promise<void>): void {
    this.queue = this.queue
      .then(task)
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'project viewers update failed'));
  }
}

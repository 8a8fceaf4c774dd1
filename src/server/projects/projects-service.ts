import type { Kysely } from 'kysely';
import {
  messages,
  type CompletedProject,
  type CompletedProjectPage,
  type CreateProjectInput,
  type Project,
  type UpdateProjectInput,
} from '../../common';
import { AppError, forbidden, invalidArgument, notFound } from '../core/app-error';
import { newId } from '../core/ids';
import { pageFromExtraRow } from '../core/pages';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { ChangeBus, FilterableFields } from '../db/change-bus';
import type { Database, DialectName } from '../db/schema';
import { Write } from '../db/unit-of-work';
import { activeProjectMembersOf } from '../notifications/notifications-repository';
import type { NotificationDraft, NotifyingUnitOfWork } from '../notifications/notifications-service';
import { listAssignableUserRefs } from '../users/users-repository';
import { webhookEvent } from '../webhooks/webhook-events';
import { createProjectCache, createProjectListCache } from './project-caches';
import { decodeProjectCursor, encodeProjectCursor } from './project-cursors';
import { presentProject } from './project-presenter';
import {
  deleteProject,
  findCompletedProject,
  findProject,
  findProjectRow,
  insertNewProject,
  listCompletedProjects,
  markProjectCompleted,
  queryProjects,
  queryProjectsPageJson,
  reopenProject,
  updateProjectAtVersion,
  type ProjectQuery,
  type ProjectsPageJson,
} from './projects-repository';

const LIST_BODY_START = Buffer.from('{"projects":');

/**
 * Project rules, for the HTTP routes and the live sources alike. The server owns ids, timestamps and
 * `createdBy` (docs/product-spec.md#flaw-4, docs/product-spec.md#flaw-12). Each write declares what it
 * changed and whom it tells to the unit of work (db/unit-of-work.ts), which carries that out at its commit.
 * Input arrives parsed (the routes parse it with the schemas of src/common).
 */
export class ProjectsService {
  private readonly listCache: ReturnType<typeof createProjectListCache>;
  private readonly projectCache: ReturnType<typeof createProjectCache>;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: DialectName;
      /** Every write's one path: its transaction, changes, notifications and forgotten caches. */
      writes: NotifyingUnitOfWork;
      /** The caches hear every instance's changes here. */
      changes: ChangeBus;
      /**
       * A project's files (attachments, a folder above this one): deleted with the project for good,
       * kept when it is completed (docs/decisions/073-attachments.md).
       */
      projectFiles?: { deleteAllOf(projectId: string): Promise<void> };
    },
  ) {
    this.listCache = createProjectListCache(deps.changes);
    this.projectCache = createProjectCache(deps.changes);
  }

  /**
   * The one read rule of projects (docs/decisions/049-server-folder-layers-and-one-read-rule.md): the
   * projects live source calls it for every subscriber, and every HTTP read below calls it first. Every
   * signed-in member reads every project, completed ones too (docs/product-spec.md#6-permissions); the
   * viewer resolver and the live upgrade admit no one else, so there is nothing more to check yet. A
   * project-level permission is written here, for both paths at once.
   */
  authorizeRead(_viewer: Viewer): void {}

  list(query: ProjectQuery): Promise<Project[]> {
    return queryProjects(this.deps.db, query);
  }

  /**
   * The `{ projects, nextCursor }` response body for a page of a list, served from cache until something
   * changes. `after` is the previous page's `nextCursor`.
   */
  listJson(
    viewer: Viewer,
    query: Omit<ProjectQuery, 'startAfter' | 'limit'> & { limit: number; after?: string },
  ): Promise<Buffer> {
    this.authorizeRead(viewer);
    const { after, limit, ...rest } = query;
    const startAfter = after === undefined ? undefined : decodeProjectCursor(after);
    return this.listCache.get(JSON.stringify(query), async () => {
      const { projectsJson, next } = await this.pageJson({ ...rest, startAfter, limit });
      const nextCursor = next ? encodeProjectCursor(next) : null;
      return Buffer.concat([
        LIST_BODY_START,
        projectsJson,
        Buffer.from(`,"nextCursor":${JSON.stringify(nextCursor)}}`),
      ]);
    });
  }

  /**
   * Forgets every cached list and project body: after a quiet while, nobody is reading them, and a small
   * server's memory matters more than the next read's few milliseconds (src/server/core/quiet-release.ts).
   */
  dropCachedBodies(): void {
    this.listCache.clear();
    this.projectCache.clear();
  }

  /** SQLite writes the page's JSON itself; on PostgreSQL the rows are presented and stringified here. */
  private async pageJson(query: ProjectQuery & { limit: number }): Promise<ProjectsPageJson> {
    if (this.deps.dialect === 'sqlite') return queryProjectsPageJson(this.deps.db, query);
    const column = query.orderBy.column;
    const page = pageFromExtraRow(
      await this.list({ ...query, limit: query.limit + 1 }),
      query.limit,
      (last): [string, string] => [
        column === 'due_date' ? last.dueDate : column === 'name' ? last.name : last.createdAt,
        last.id,
      ],
    );
    return { projectsJson: Buffer.from(JSON.stringify(page.items)), next: page.next };
  }

  find(id: string): Promise<Project | null> {
    return findProject(this.deps.db, id);
  }

  /** The `{ project }` response body for one project, served from cache until it changes. */
  async getJson(viewer: Viewer, id: string): Promise<Buffer> {
    this.authorizeRead(viewer);
    const body = await this.projectCache.get(id, async () => {
      const project = await this.find(id);
      return project ? Buffer.from(JSON.stringify({ project })) : null;
    });
    if (!body) throw notFound(messages.projectNotFound);
    return body;
  }

  async create(viewer: Viewer, input: CreateProjectInput): Promise<Project> {
    const createdAt = nowIso();
    const row = {
      id: newId(),
      name: input.name,
      details: input.details,
      due_date: input.dueDate,
      category: input.category,
      created_by: viewer.uid,
      created_at: createdAt,
      updated_at: createdAt,
    };
    const write = new Write<NotificationDraft>()
      .changed({ collection: 'projects', id: row.id, after: filterableFields({ ...input, createdAt }) })
      .notify({
        kind: 'assigned',
        recipientIds: input.assignedUserIds,
        projectId: row.id,
        actorId: viewer.uid,
      })
      .forgetAfterCommit(() => this.listCache.clear())
      .emit(
        webhookEvent('project.created', viewer, {
          project: {
            id: row.id,
            name: input.name,
            details: input.details,
            dueDate: input.dueDate,
            category: input.category,
            assignedUserIds: input.assignedUserIds,
            createdBy: viewer.uid,
          },
        }),
      );
    const assignees = await this.deps.writes.runDeclared(
      write,
      insertNewProject(this.deps.dialect, row, input.assignedUserIds),
    );
    if (!assignees) throw invalidArgument({ assignedUserIds: messages.unknownAssignee });
    // Presented from what was just written: no read-back on the hot path.
    const byId = new Map(assignees.map((user) => [user.id, user]));
    const assignedUsersList = input.assignedUserIds.flatMap((userId) => byId.get(userId) ?? []);
    return presentProject(
      // A new project is at its column's first version.
      { ...row, version: 1 },
      {
        assignedUsersList,
        assignedUserIds: assignedUsersList.map((user) => user.id),
        createdBy: { id: viewer.uid, displayName: viewer.displayName, photoURL: viewer.photoURL },
      },
    );
  }

  /**
   * An edit by the creator or an admin, with the create form's rules. It names the version it started
   * from; if the project moved on meanwhile, nothing is written and the editor is told (409), so two
   * people editing at once never silently lose one of the edits.
   */
  async update(viewer: Viewer, id: string, input: UpdateProjectInput): Promise<Project> {
    const existing = await this.find(id);
    if (!existing) throw notFound(messages.projectNotFound);
    if (existing.createdBy.id !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(messages.onlyCreatorEdits);
    }
    const updatedAt = nowIso();
    await this.deps.writes.run(async (trx, write) => {
      const known = await listAssignableUserRefs(trx, input.assignedUserIds);
      // Someone deactivated after being assigned may stay on it; only new assignees must be active.
      const knownIds = new Set([...known.map((user) => user.id), ...existing.assignedUserIds]);
      if (input.assignedUserIds.some((userId) => !knownIds.has(userId))) {
        throw invalidArgument({ assignedUserIds: messages.unknownAssignee });
      }
      const written = await updateProjectAtVersion(
        trx,
        id,
        input.version,
        {
          name: input.name,
          details: input.details,
          due_date: input.dueDate,
          category: input.category,
          updated_at: updatedAt,
        },
        input.assignedUserIds,
      );
      if (!written) throw new AppError('conflict', messages.projectChanged);
      const previousAssignees = new Set(existing.assignedUserIds);
      this.projectChanged(write, id, filterableFields({ ...input, createdAt: existing.createdAt })).emit(
        webhookEvent('project.edited', viewer, {
          project: {
            id,
            name: input.name,
            details: input.details,
            dueDate: input.dueDate,
            category: input.category,
            assignedUserIds: input.assignedUserIds,
            createdBy: existing.createdBy.id,
          },
        }),
      );
      // Someone newly assigned hears 'assigned' (the first draft naming them wins), everyone else on it 'edited'.
      write.notify(
        {
          kind: 'assigned',
          recipientIds: input.assignedUserIds.filter((userId) => !previousAssignees.has(userId)),
          projectId: id,
          actorId: viewer.uid,
        },
        {
          kind: 'project_edited',
          recipientIds: await activeProjectMembersOf(trx, id),
          projectId: id,
          actorId: viewer.uid,
        },
      );
    });
    const project = await this.find(id);
    if (!project) throw notFound(messages.projectNotFound);
    return project;
  }

  /**
   * 'Mark as Complete': only the creator may. The project leaves every dashboard at once, as the spec has
   * it, but it is kept, with its comments, in the completed list, from where it can be reopened.
   */
  async complete(viewer: Viewer, id: string): Promise<void> {
    const project = await findProjectRow(this.deps.db, id);
    if (!project || project.completed_at !== null) throw notFound(messages.projectNotFound);
    if (project.created_by !== viewer.uid) throw forbidden(messages.onlyCreatorCompletes);
    // Its fields route the change to the calendar's completed ranges it now joins (decision 071).
    const open = await this.find(id);
    if (!open) throw notFound(messages.projectNotFound);
    await this.deps.writes.run(async (trx, write) => {
      if (!(await markProjectCompleted(trx, id, viewer.uid, nowIso())))
        throw notFound(messages.projectNotFound);
      // Its comments are no longer shown anywhere live: subscribers of them get an empty page.
      this.projectChanged(write, id, { ...filterableFields(open), completed: true }).changed({
        collection: 'comments',
        id,
        after: { projectId: id },
      });
      await this.notifyMembers(trx, write, viewer, id, 'project_completed');
      write.emit(webhookEvent('project.completed', viewer, { project: { id, name: open.name } }));
    });
  }

  /** Completed projects, the latest completion first; `after` is the previous page's `nextCursor`. */
  async listCompleted(
    viewer: Viewer,
    page: { limit: number; after?: string | undefined },
  ): Promise<CompletedProjectPage> {
    this.authorizeRead(viewer);
    const after = page.after === undefined ? undefined : decodeProjectCursor(page.after);
    const { items, next } = pageFromExtraRow(
      await listCompletedProjects(this.deps.db, { after, limit: page.limit + 1 }),
      page.limit,
      (last) => encodeProjectCursor([last.completedAt, last.id]),
    );
    return { projects: items, nextCursor: next };
  }

  /** Back on every dashboard, live: the creator or an admin. */
  async reopen(viewer: Viewer, id: string): Promise<Project> {
    const completed = await this.completedOrThrow(id);
    if (completed.createdBy.id !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(messages.onlyCreatorReopens);
    }
    await this.deps.writes.run(async (trx, write) => {
      if (!(await reopenProject(trx, id, nowIso()))) throw notFound(messages.completedProjectNotFound);
      this.projectChanged(write, id, filterableFields(completed)).changed({
        collection: 'comments',
        id,
        after: { projectId: id },
      });
      await this.notifyMembers(trx, write, viewer, id, 'project_reopened');
      write.emit(webhookEvent('project.reopened', viewer, { project: { id, name: completed.name } }));
    });
    const project = await this.find(id);
    if (!project) throw notFound(messages.projectNotFound);
    return project;
  }

  /** Deletes a completed project for good, with its comments: the creator or an admin, once confirmed. */
  async deleteForGood(viewer: Viewer, id: string): Promise<void> {
    const completed = await this.completedOrThrow(id);
    if (completed.createdBy.id !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(messages.onlyCreatorDeletes);
    }
    // In a unit of work only for its webhook event, written in the same transaction as the delete.
    await this.deps.writes.run(async (trx, write) => {
      if (!(await deleteProject(trx, id))) throw notFound(messages.completedProjectNotFound);
      write.emit(webhookEvent('project.deleted', viewer, { project: { id, name: completed.name } }));
    });
    // After the rows: an upload that starts now finds no project and is refused by the storage rules.
    await this.deps.projectFiles?.deleteAllOf(id);
  }

  /** A completed project, for the links that still point at it (search results, notifications). */
  getCompleted(viewer: Viewer, id: string): Promise<CompletedProject> {
    this.authorizeRead(viewer);
    return this.completedOrThrow(id);
  }

  private async completedOrThrow(id: string): Promise<CompletedProject> {
    const completed = await findCompletedProject(this.deps.db, id);
    if (!completed) throw notFound(messages.completedProjectNotFound);
    return completed;
  }

  /** Declares a project's change: published at the commit, its cached bodies forgotten right after it. */
  private projectChanged(
    write: Write<NotificationDraft>,
    id: string,
    after: FilterableFields | null,
  ): Write<NotificationDraft> {
    return write.changed({ collection: 'projects', id, after }).forgetAfterCommit(() => {
      this.listCache.clear();
      this.projectCache.forget(id);
    });
  }

  /** Tells the project's creator and assignees (not the actor). */
  private async notifyMembers(
    trx: Kysely<Database>,
    write: Write<NotificationDraft>,
    viewer: Viewer,
    projectId: string,
    kind: 'project_completed' | 'project_reopened',
  ): Promise<void> {
    write.notify({
      kind,
      recipientIds: await activeProjectMembersOf(trx, projectId),
      projectId,
      actorId: viewer.uid,
    });
  }
}

/** What live queries filter and page projects by, for the change bus: no read-back to route a change. */
function filterableFields(project: {
  category: string;
  assignedUserIds: readonly string[];
  createdAt: string;
  dueDate: string;
}): FilterableFields {
  return {
    category: project.category,
    assignedUserIds: [...project.assignedUserIds],
    createdAt: project.createdAt,
    dueDate: project.dueDate,
  };
}

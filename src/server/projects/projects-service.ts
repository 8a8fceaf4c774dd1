import type { Insertable, Kysely } from 'kysely';
import {
  mentionedUserIds,
  messages,
  type AddCommentInput,
  type Comment,
  type CommentPage,
  type CompletedProject,
  type CompletedProjectPage,
  type CreateProjectInput,
  type EditCommentInput,
  type Project,
  type UpdateProjectInput,
  type UserRef,
} from '../../common';
import type { FilterableFields } from '../db/change-bus';
import { AppError } from '../core/app-error';
import { encodeProjectCursor, decodeProjectCursor } from './project-cursors';
import type { Viewer } from '../core/viewer';
import type { Database, DialectName, ProjectsTable } from '../db/schema';
import type { Change, ChangeBus } from '../db/change-bus';
import { activeProjectMembersOf, activeUserIdsOf } from '../notifications/notifications-repository';
import type { NotificationJobs } from '../notifications/notification-jobs';
import {
  inlineNotifications,
  notifyWithin,
  type NotificationDraft,
  type Notified,
} from '../notifications/notifications-service';
import { forbidden, invalidArgument, notFound } from '../core/app-error';
import { newId } from '../core/ids';
import { nowIso } from '../core/time';
import { pageFromExtraRow } from '../core/pages';
import { listAssignableUserRefs } from '../users/users-repository';
import { createProjectCache, createProjectListCache } from './project-caches';
import {
  deleteCommentOf,
  deleteProject,
  findCompletedProject,
  listCompletedProjects,
  markProjectCompleted,
  reopenProject,
  updateProjectAtVersion,
  findComment,
  findCommentAuthor,
  findCommentSeq,
  findProject,
  findProjectRow,
  insertCommentIfProjectExists,
  insertProjectForActiveAssignees,
  insertProjectNotifying,
  listComments,
  queryProjects,
  queryProjectsPageJson,
  updateCommentOf,
  type ProjectQuery,
  type ProjectsPageJson,
} from './projects-repository';

/** A write's transaction committed: what is left to do (`ProjectsService.afterCommit`). */
interface Committed {
  unpublished: Change[];
  queuedNotifications: boolean;
}

const LIST_BODY_START = Buffer.from('{"projects":');

/**
 * Project rules, for the HTTP routes and the live sources alike. The server owns ids, timestamps and
 * `createdBy` (docs/product-spec.md#flaw-4, docs/product-spec.md#flaw-12); changes are published only after
 * their transaction commits. Input arrives parsed (the routes parse it with the schemas of src/common).
 */
export class ProjectsService {
  private readonly listCache: ReturnType<typeof createProjectListCache>;
  private readonly projectCache: ReturnType<typeof createProjectCache>;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: DialectName;
      changes: ChangeBus;
      notificationJobs: Pick<NotificationJobs, 'queued'>;
    },
  ) {
    this.listCache = createProjectListCache(deps.changes);
    this.projectCache = createProjectCache(deps.changes);
  }

  list(query: ProjectQuery): Promise<Project[]> {
    return queryProjects(this.deps.db, query);
  }

  /**
   * The `{ projects, nextCursor }` response body for a page of a list, served from cache until something
   * changes. `after` is the previous page's `nextCursor`.
   */
  listJson(
    query: Omit<ProjectQuery, 'startAfter' | 'limit'> & { limit: number; after?: string },
  ): Promise<Buffer> {
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
  async getJson(id: string): Promise<Buffer> {
    const body = await this.projectCache.get(id, async () => {
      const project = await this.find(id);
      return project ? Buffer.from(JSON.stringify({ project })) : null;
    });
    if (!body) throw notFound(messages.projectNotFound);
    return body;
  }

  /** A page of a project's comments, newest first; `before` is the previous page's `nextCursor`. */
  async getCommentPage(projectId: string, page: { limit: number; before?: string }): Promise<CommentPage> {
    const { db } = this.deps;
    const project = await findProjectRow(db, projectId);
    if (!project || project.completed_at !== null) throw notFound(messages.projectNotFound);
    let beforeSeq: number | undefined;
    if (page.before !== undefined) {
      const seq = await findCommentSeq(db, projectId, page.before);
      if (seq === null) throw invalidArgument({ before: messages.commentCursorInvalid });
      beforeSeq = seq;
    }
    const { items, next } = pageFromExtraRow(
      await listComments(db, projectId, { limit: page.limit + 1, beforeSeq }),
      page.limit,
      (last) => last.id,
    );
    return { comments: items, nextCursor: next };
  }

  /** A project's newest comments for a live query: none once the project is gone (completed). */
  async newestComments(projectId: string, limit: number): Promise<Comment[]> {
    const project = await findProjectRow(this.deps.db, projectId);
    if (!project || project.completed_at !== null) return [];
    return listComments(this.deps.db, projectId, { limit });
  }

  findComment(id: string): Promise<Comment | null> {
    return findComment(this.deps.db, id);
  }

  async create(viewer: Viewer, input: CreateProjectInput): Promise<Project> {
    const id = newId();
    const createdAt = nowIso();
    const assignees = await this.insertProject(
      {
        id,
        name: input.name,
        details: input.details,
        due_date: input.dueDate,
        category: input.category,
        created_by: viewer.uid,
        created_at: createdAt,
        updated_at: createdAt,
      },
      input.assignedUserIds,
      { collection: 'projects', id, after: filterableFields({ ...input, createdAt }) },
      [{ kind: 'assigned', recipientIds: input.assignedUserIds, projectId: id, actorId: viewer.uid }],
    );
    if (!assignees) throw invalidArgument({ assignedUserIds: messages.unknownAssignee });
    // Presented from what was just written: no read-back on the hot path.
    const byId = new Map(assignees.map((user) => [user.id, user]));
    const assignedUsersList = input.assignedUserIds.flatMap((userId) => byId.get(userId) ?? []);
    return {
      id,
      name: input.name,
      details: input.details,
      dueDate: input.dueDate,
      category: input.category,
      assignedUsersList,
      assignedUserIds: assignedUsersList.map((user) => user.id),
      createdBy: { id: viewer.uid, displayName: viewer.displayName, photoURL: viewer.photoURL },
      createdAt,
      version: 1,
      updatedAt: createdAt,
    };
  }

  /**
   * Writes a new project, its assignees' notifications and its changes, or nothing when an assignee is not
   * an active user (null). On PostgreSQL, when the assignees are told inline and the changes surely fit one
   * NOTIFY, all of it is one statement: no transaction, 2 round trips per create instead of 6
   * (docs/decisions/041-create-in-one-statement.md). Otherwise a transaction, published at its commit.
   */
  private async insertProject(
    row: Insertable<ProjectsTable>,
    assigneeIds: readonly string[],
    change: Change,
    drafts: NotificationDraft[],
  ): Promise<UserRef[] | null> {
    const { db, dialect, changes } = this.deps;
    const inline = dialect === 'postgres' && assigneeIds.length > 0 ? inlineNotifications(drafts) : null;
    const notify = inline && changes.notifyFromStatement([change], inline.changes);
    if (inline && notify) {
      const known = await insertProjectNotifying(db, row, assigneeIds, inline.rows, notify);
      if (known) this.listCache.clear();
      return known;
    }
    const created = await db.transaction().execute(async (trx) => {
      const known = await insertProjectForActiveAssignees(trx, dialect, row, assigneeIds);
      if (!known) return null;
      return { known, committed: await this.atCommit(trx, [change], await notifyWithin(trx, drafts)) };
    });
    if (!created) return null;
    this.listCache.clear();
    await this.afterCommit(created.committed);
    return created.known;
  }

  /**
   * An edit by the creator or an admin, with the create form's rules. It names the version it started
   * from; if the project moved on meanwhile, nothing is written and the editor is told (409), so two
   * people editing at once never silently lose one of the edits.
   */
  async update(viewer: Viewer, id: string, input: UpdateProjectInput): Promise<Project> {
    const { db } = this.deps;
    const existing = await this.find(id);
    if (!existing) throw notFound(messages.projectNotFound);
    if (existing.createdBy.id !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(messages.onlyCreatorEdits);
    }
    const updatedAt = nowIso();
    const committed = await db.transaction().execute(async (trx) => {
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
      // Someone newly assigned hears 'assigned' (the first draft naming them wins), everyone else on it 'edited'.
      const notified = await notifyWithin(trx, [
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
      ]);
      return this.atCommit(
        trx,
        [
          {
            collection: 'projects',
            id,
            after: filterableFields({ ...input, createdAt: existing.createdAt }),
          },
        ],
        notified,
      );
    });
    this.listCache.clear();
    this.projectCache.forget(id);
    await this.afterCommit(committed);
    const project = await this.find(id);
    if (!project) throw notFound(messages.projectNotFound);
    return project;
  }

  /**
   * 'Mark as Complete': only the creator may. The project leaves every dashboard at once, as the spec has
   * it, but it is kept, with its comments, in the completed list, from where it can be reopened.
   */
  async complete(viewer: Viewer, id: string): Promise<void> {
    const { db } = this.deps;
    const project = await findProjectRow(db, id);
    if (!project || project.completed_at !== null) throw notFound(messages.projectNotFound);
    if (project.created_by !== viewer.uid) throw forbidden(messages.onlyCreatorCompletes);
    const committed = await db.transaction().execute(async (trx) => {
      if (!(await markProjectCompleted(trx, id, viewer.uid, nowIso())))
        throw notFound(messages.projectNotFound);
      const notified = await this.notifyMembers(trx, viewer, id, 'project_completed');
      // Its comments are no longer shown anywhere live: subscribers of them get an empty page.
      return this.atCommit(
        trx,
        [
          { collection: 'projects', id, after: null },
          { collection: 'comments', id, after: { projectId: id } },
        ],
        notified,
      );
    });
    this.listCache.clear();
    this.projectCache.forget(id);
    await this.afterCommit(committed);
  }

  /** Completed projects, the latest completion first; `after` is the previous page's `nextCursor`. */
  async listCompleted(page: { limit: number; after?: string | undefined }): Promise<CompletedProjectPage> {
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
    const { db } = this.deps;
    const completed = await this.completedOrThrow(id);
    if (completed.createdBy.id !== viewer.uid && viewer.role !== 'admin') {
      throw forbidden(messages.onlyCreatorReopens);
    }
    const committed = await db.transaction().execute(async (trx) => {
      if (!(await reopenProject(trx, id, nowIso()))) throw notFound(messages.completedProjectNotFound);
      const notified = await this.notifyMembers(trx, viewer, id, 'project_reopened');
      return this.atCommit(
        trx,
        [
          { collection: 'projects', id, after: filterableFields(completed) },
          { collection: 'comments', id, after: { projectId: id } },
        ],
        notified,
      );
    });
    this.listCache.clear();
    this.projectCache.forget(id);
    await this.afterCommit(committed);
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
    if (!(await deleteProject(this.deps.db, id))) throw notFound(messages.completedProjectNotFound);
  }

  /** A completed project, for the links that still point at it (search results, notifications). */
  getCompleted(id: string): Promise<CompletedProject> {
    return this.completedOrThrow(id);
  }

  private async completedOrThrow(id: string): Promise<CompletedProject> {
    const completed = await findCompletedProject(this.deps.db, id);
    if (!completed) throw notFound(messages.completedProjectNotFound);
    return completed;
  }

  /** Tells the project's creator and assignees (not the actor), inside the action's transaction. */
  private async notifyMembers(
    trx: Kysely<Database>,
    viewer: Viewer,
    projectId: string,
    kind: 'project_completed' | 'project_reopened',
  ): Promise<Notified> {
    const recipientIds = await activeProjectMembersOf(trx, projectId);
    return notifyWithin(trx, [{ kind, recipientIds, projectId, actorId: viewer.uid }]);
  }

  /** Inside a write's transaction: its own changes and its notifications' go out at its commit. */
  private async atCommit(trx: Kysely<Database>, own: Change[], notified: Notified): Promise<Committed> {
    const unpublished = await this.deps.changes.publishAtCommit(trx, [...own, ...notified.changes]);
    return { unpublished, queuedNotifications: notified.queued };
  }

  /** After that commit: the changes still to publish go out, and queued notifications are handed on. */
  private async afterCommit(committed: Committed): Promise<void> {
    await this.deps.changes.publish(committed.unpublished);
    if (committed.queuedNotifications) this.deps.notificationJobs.queued();
  }

  /** Comments are rows: an append never rewrites the project, so concurrent commenters lose nothing. */
  async addComment(viewer: Viewer, projectId: string, input: AddCommentInput): Promise<Comment> {
    const comment = { id: newId(), createdAt: nowIso() };
    const committed = await this.deps.db.transaction().execute(async (trx) => {
      const added = await insertCommentIfProjectExists(trx, {
        id: comment.id,
        projectId,
        authorId: viewer.uid,
        content: input.content,
        createdAt: comment.createdAt,
      });
      if (!added) throw notFound(messages.projectNotFound);
      const mentioned = mentionedUserIds(input.content);
      const active = await activeUserIdsOf(trx, mentioned);
      // A mention wins over 'commented': drafts earlier in the list take a user first.
      const notified = await notifyWithin(trx, [
        {
          kind: 'mentioned',
          recipientIds: mentioned.filter((userId) => active.has(userId)),
          projectId,
          commentId: comment.id,
          actorId: viewer.uid,
        },
        {
          kind: 'commented',
          recipientIds: await activeProjectMembersOf(trx, projectId),
          projectId,
          commentId: comment.id,
          actorId: viewer.uid,
        },
      ]);
      // Only the project's comments queries re-run (and the bells of whom it told); every list stays as it is.
      return this.atCommit(trx, [{ collection: 'comments', id: comment.id, after: { projectId } }], notified);
    });
    await this.afterCommit(committed);
    return {
      id: comment.id,
      projectId,
      authorId: viewer.uid,
      displayName: viewer.displayName,
      photoURL: viewer.photoURL,
      content: input.content,
      createdAt: comment.createdAt,
      editedAt: null,
    };
  }

  /**
   * An author rewrites their own comment. Viewers of the newest page get that one comment as `modified`
   * (the change names it, and the hub re-reads only the pages that hold it or could).
   */
  async editComment(
    viewer: Viewer,
    projectId: string,
    commentId: string,
    input: EditCommentInput,
  ): Promise<Comment> {
    const { db } = this.deps;
    await this.requireOwnComment(viewer, projectId, commentId, messages.onlyAuthorEditsComment);
    const editedAt = nowIso();
    const unpublished = await db.transaction().execute(async (trx) => {
      const edited = await updateCommentOf(trx, {
        projectId,
        commentId,
        authorId: viewer.uid,
        content: input.content,
        editedAt,
      });
      if (!edited) throw notFound(messages.commentNotFound);
      return this.deps.changes.publishAtCommit(trx, [
        { collection: 'comments', id: commentId, after: { projectId } },
      ]);
    });
    await this.deps.changes.publish(unpublished);
    const comment = await findComment(db, commentId);
    // Read back for the author's current name and picture; a delete racing in between still answers.
    return (
      comment ?? {
        id: commentId,
        projectId,
        authorId: viewer.uid,
        displayName: viewer.displayName,
        photoURL: viewer.photoURL,
        content: input.content,
        createdAt: editedAt,
        editedAt,
      }
    );
  }

  /** An author deletes their own comment; pages that showed it get one `removed` change. */
  async deleteComment(viewer: Viewer, projectId: string, commentId: string): Promise<void> {
    await this.requireOwnComment(viewer, projectId, commentId, messages.onlyAuthorDeletesComment);
    const unpublished = await this.deps.db.transaction().execute(async (trx) => {
      const deleted = await deleteCommentOf(trx, { projectId, commentId, authorId: viewer.uid });
      if (!deleted) throw notFound(messages.commentNotFound);
      // `after: null`: only the queries whose last result held the comment are re-read.
      return this.deps.changes.publishAtCommit(trx, [{ collection: 'comments', id: commentId, after: null }]);
    });
    await this.deps.changes.publish(unpublished);
  }

  /** 404 for a project or comment that is not there, 403 for someone else's comment. */
  private async requireOwnComment(
    viewer: Viewer,
    projectId: string,
    commentId: string,
    forbiddenMessage: string,
  ): Promise<void> {
    const { db } = this.deps;
    // A completed project's comments are kept as they were: to its comments, it is gone (as for adding).
    const project = await findProjectRow(db, projectId);
    if (!project || project.completed_at !== null) throw notFound(messages.projectNotFound);
    const authorId = await findCommentAuthor(db, projectId, commentId);
    if (authorId === null) throw notFound(messages.commentNotFound);
    if (authorId !== viewer.uid) throw forbidden(forbiddenMessage);
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

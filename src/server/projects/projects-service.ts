import type { Kysely } from 'kysely';
import {
  messages,
  type AddCommentInput,
  type Comment,
  type CommentPage,
  type CreateProjectInput,
  type EditCommentInput,
  type Project,
} from '../../common';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/schema';
import type { ChangeBus } from '../live/change-bus';
import { forbidden, invalidArgument, notFound } from '../shared/app-error';
import { newId } from '../shared/ids';
import { nowIso } from '../shared/time';
import { listAssignableUserRefs } from '../users/users-repository';
import { createProjectCache, createProjectListCache } from './project-caches';
import {
  deleteCommentOf,
  deleteProjectOf,
  findComment,
  findCommentAuthor,
  findCommentSeq,
  findProject,
  findProjectRow,
  insertCommentIfProjectExists,
  insertProject,
  listComments,
  queryProjects,
  updateCommentOf,
  type ProjectQuery,
} from './projects-repository';

/**
 * Project rules, for the HTTP routes and the live sources alike. The server owns ids, timestamps and
 * `createdBy` (docs/product-spec.md#flaw-4, docs/product-spec.md#flaw-12); changes are published only after
 * their transaction commits. Input arrives parsed (the routes parse it with the schemas of src/common).
 */
export class ProjectsService {
  private readonly listCache: ReturnType<typeof createProjectListCache>;
  private readonly projectCache: ReturnType<typeof createProjectCache>;

  constructor(private readonly deps: { db: Kysely<Database>; changes: ChangeBus }) {
    this.listCache = createProjectListCache(deps.changes);
    this.projectCache = createProjectCache(deps.changes);
  }

  list(query: ProjectQuery): Promise<Project[]> {
    return queryProjects(this.deps.db, query);
  }

  /** The `{ projects }` response body for a list query, served from cache until something changes. */
  listJson(query: ProjectQuery): Promise<Buffer> {
    return this.listCache.get(JSON.stringify(query), async () =>
      Buffer.from(JSON.stringify({ projects: await this.list(query) })),
    );
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
    if (!(await findProjectRow(db, projectId))) throw notFound(messages.projectNotFound);
    let beforeSeq: number | undefined;
    if (page.before !== undefined) {
      const seq = await findCommentSeq(db, projectId, page.before);
      if (seq === null) throw invalidArgument({ before: messages.commentCursorInvalid });
      beforeSeq = seq;
    }
    // One more than asked tells whether an older page exists without a second query.
    const rows = await listComments(db, projectId, { limit: page.limit + 1, beforeSeq });
    const comments = rows.slice(0, page.limit);
    return { comments, nextCursor: rows.length > page.limit ? (comments.at(-1)?.id ?? null) : null };
  }

  /** A project's newest comments for a live query: none once the project is gone (completed). */
  newestComments(projectId: string, limit: number): Promise<Comment[]> {
    return listComments(this.deps.db, projectId, { limit });
  }

  findComment(id: string): Promise<Comment | null> {
    return findComment(this.deps.db, id);
  }

  async create(viewer: Viewer, input: CreateProjectInput): Promise<Project> {
    const { db, changes } = this.deps;
    const id = newId();
    const createdAt = nowIso();
    const assignees = await db.transaction().execute(async (trx) => {
      const known = await listAssignableUserRefs(trx, input.assignedUserIds);
      if (known.length !== input.assignedUserIds.length) {
        throw invalidArgument({ assignedUserIds: messages.unknownAssignee });
      }
      await insertProject(
        trx,
        {
          id,
          name: input.name,
          details: input.details,
          due_date: input.dueDate,
          category: input.category,
          created_by: viewer.uid,
          created_at: createdAt,
        },
        input.assignedUserIds,
      );
      return known;
    });
    this.listCache.clear();
    await changes.publish([
      {
        collection: 'projects',
        id,
        after: { category: input.category, assignedUserIds: input.assignedUserIds },
      },
    ]);
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
    };
  }

  /** 'Mark as Complete' deletes the project; only its creator may. */
  async complete(viewer: Viewer, id: string): Promise<void> {
    const { db, changes } = this.deps;
    const project = await findProjectRow(db, id);
    if (!project) throw notFound(messages.projectNotFound);
    if (project.created_by !== viewer.uid) throw forbidden(messages.onlyCreatorCompletes);
    await deleteProjectOf(db, id, viewer.uid);
    this.listCache.clear();
    this.projectCache.forget(id);
    // Its comments went with it (cascade): subscribers of them get an empty page.
    await changes.publish([
      { collection: 'projects', id, after: null },
      { collection: 'comments', id, after: { projectId: id } },
    ]);
  }

  /** Comments are rows: an append never rewrites the project, so concurrent commenters lose nothing. */
  async addComment(viewer: Viewer, projectId: string, input: AddCommentInput): Promise<Comment> {
    const comment = { id: newId(), createdAt: nowIso() };
    const added = await insertCommentIfProjectExists(this.deps.db, {
      id: comment.id,
      projectId,
      authorId: viewer.uid,
      content: input.content,
      createdAt: comment.createdAt,
    });
    if (!added) throw notFound(messages.projectNotFound);
    // Only the project's comments queries re-run; the project and every list stay as they are.
    await this.deps.changes.publish([{ collection: 'comments', id: comment.id, after: { projectId } }]);
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
    const edited = await updateCommentOf(db, {
      projectId,
      commentId,
      authorId: viewer.uid,
      content: input.content,
      editedAt,
    });
    if (!edited) throw notFound(messages.commentNotFound);
    await this.deps.changes.publish([{ collection: 'comments', id: commentId, after: { projectId } }]);
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
    const deleted = await deleteCommentOf(this.deps.db, { projectId, commentId, authorId: viewer.uid });
    if (!deleted) throw notFound(messages.commentNotFound);
    // `after: null`: only the queries whose last result held the comment are re-read.
    await this.deps.changes.publish([{ collection: 'comments', id: commentId, after: null }]);
  }

  /** 404 for a project or comment that is not there, 403 for someone else's comment. */
  private async requireOwnComment(
    viewer: Viewer,
    projectId: string,
    commentId: string,
    forbiddenMessage: string,
  ): Promise<void> {
    const { db } = this.deps;
    const authorId = await findCommentAuthor(db, projectId, commentId);
    if (authorId === null) {
      if (!(await findProjectRow(db, projectId))) throw notFound(messages.projectNotFound);
      throw notFound(messages.commentNotFound);
    }
    if (authorId !== viewer.uid) throw forbidden(forbiddenMessage);
  }
}

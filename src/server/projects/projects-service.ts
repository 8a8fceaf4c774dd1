import type { Kysely } from 'kysely';
import {
  AddCommentSchema,
  CreateProjectSchema,
  messages,
  type Comment,
  type CommentPage,
  type Project,
} from '../../common';
import type { Viewer } from '../auth/viewer';
import type { Database } from '../db/schema';
import { nowIso } from '../shared/time';
import { forbidden, invalidArgument, notFound } from '../shared/app-error';
import { parseInput } from '../shared/validate';
import type { ChangeBus } from '../live/change-bus';
import { newId } from '../shared/ids';
import { ProjectCache } from './project-cache';
import { ProjectListCache } from './project-list-cache';
import {
  findCommentSeq,
  findProject,
  getProject,
  listComments,
  queryProjects,
  type ProjectQuery,
} from './projects-repository';

/**
 * Project rules. The server owns ids, timestamps and `createdBy` (docs/product-spec.md#flaw-4, docs/product-spec.md#flaw-12); changes are
 * published only after their transaction commits.
 */
export class ProjectsService {
  private readonly listCache: ProjectListCache;
  private readonly projectCache: ProjectCache;

  constructor(private readonly deps: { db: Kysely<Database>; changes: ChangeBus }) {
    this.listCache = new ProjectListCache(deps.changes);
    this.projectCache = new ProjectCache(deps.changes);
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

  /** The `{ project }` response body for one project, served from cache until it changes. */
  async getJson(id: string): Promise<Buffer> {
    const body = await this.projectCache.get(id, async () => {
      const project = await getProject(this.deps.db, id);
      return project ? Buffer.from(JSON.stringify({ project })) : null;
    });
    if (!body) throw notFound(messages.projectNotFound);
    return body;
  }

  /** A page of a project's comments, newest first; `before` is the previous page's `nextCursor`. */
  async listComments(projectId: string, page: { limit: number; before?: string }): Promise<CommentPage> {
    const { db } = this.deps;
    if (!(await findProject(db, projectId))) throw notFound(messages.projectNotFound);
    let beforeSeq: number | undefined;
    if (page.before !== undefined) {
      beforeSeq = await findCommentSeq(db, projectId, page.before);
      if (beforeSeq === undefined) throw invalidArgument({ before: messages.commentCursorInvalid });
    }
    // One more than asked tells whether an older page exists without a second query.
    const rows = await listComments(db, projectId, { limit: page.limit + 1, beforeSeq });
    const comments = rows.slice(0, page.limit);
    return { comments, nextCursor: rows.length > page.limit ? (comments.at(-1)?.id ?? null) : null };
  }

  async create(viewer: Viewer, body: unknown): Promise<Project> {
    const input = parseInput(CreateProjectSchema, body);
    const { db, changes } = this.deps;
    const id = newId();
    const createdAt = nowIso();
    const assignees = await db.transaction().execute(async (trx) => {
      const known = await trx
        .selectFrom('users')
        .select(['id', 'display_name as displayName', 'photo_url as photoURL'])
        .where('id', 'in', input.assignedUserIds)
        .execute();
      if (known.length !== input.assignedUserIds.length) {
        throw invalidArgument({ assignedUserIds: messages.unknownAssignee });
      }
      await trx
        .insertInto('projects')
        .values({
          id,
          name: input.name,
          details: input.details,
          due_date: input.dueDate,
          category: input.category,
          created_by: viewer.uid,
          created_at: createdAt,
        })
        .execute();
      await trx
        .insertInto('project_assignees')
        .values(
          input.assignedUserIds.map((userId, position) => ({ project_id: id, user_id: userId, position })),
        )
        .execute();
      return known;
    });
    this.listCache.invalidate();
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
    const project = await findProject(db, id);
    if (!project) throw notFound(messages.projectNotFound);
    if (project.created_by !== viewer.uid) throw forbidden(messages.onlyCreatorCompletes);
    await db.deleteFrom('projects').where('id', '=', id).where('created_by', '=', viewer.uid).execute();
    this.listCache.invalidate();
    this.projectCache.forget(id);
    // Its comments went with it (cascade): subscribers of them get an empty page.
    await changes.publish([
      { collection: 'projects', id, after: null },
      { collection: 'comments', id, after: { projectId: id } },
    ]);
  }

  /** Comments are rows: an append never rewrites the project, so concurrent commenters lose nothing. */
  async addComment(viewer: Viewer, projectId: string, body: unknown): Promise<Comment> {
    const { content } = parseInput(AddCommentSchema, body);
    const { db, changes } = this.deps;
    const comment = { id: newId(), created_at: nowIso() };
    const inserted = await db
      .insertInto('comments')
      .columns(['id', 'project_id', 'author_id', 'content', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('projects')
          .select([
            eb.val(comment.id).as('id'),
            'projects.id as project_id',
            eb.val(viewer.uid).as('author_id'),
            eb.val(content).as('content'),
            eb.val(comment.created_at).as('created_at'),
          ])
          .where('projects.id', '=', projectId),
      )
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw notFound(messages.projectNotFound);
    // Only the project's comments queries re-run; the project and every list stay as they are.
    await changes.publish([{ collection: 'comments', id: comment.id, after: { projectId } }]);
    return {
      id: comment.id,
      projectId,
      authorId: viewer.uid,
      displayName: viewer.displayName,
      photoURL: viewer.photoURL,
      content,
      createdAt: comment.created_at,
    };
  }
}

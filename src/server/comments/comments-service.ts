import type { Kysely } from 'kysely';
import {
  mentionedUserIds,
  messages,
  type AddCommentInput,
  type Comment,
  type CommentPage,
  type EditCommentInput,
} from '../../common';
import { forbidden, invalidArgument, notFound } from '../core/app-error';
import { newId } from '../core/ids';
import { pageFromExtraRow } from '../core/pages';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { activeProjectMembersOf, activeUserIdsOf } from '../notifications/notifications-repository';
import type { NotifyingUnitOfWork } from '../notifications/notifications-service';
import { findProjectRow } from '../projects/projects-repository';
import { webhookEvent } from '../webhooks/webhook-events';
import { presentComment } from './comment-presenter';
import {
  deleteCommentOf,
  findComment,
  findCommentOfProject,
  insertCommentIfProjectExists,
  listComments,
  updateCommentOf,
} from './comments-repository';

/**
 * A project's discussion, for the HTTP routes and the `comments` live source alike. A completed project's
 * comments are kept as they were: to its comments, the project is gone.
 */
export class CommentsService {
  constructor(private readonly deps: { db: Kysely<Database>; writes: NotifyingUnitOfWork }) {}

  /**
   * The one read rule of comments (docs/decisions/049-server-folder-layers-and-one-read-rule.md): the
   * comments live source calls it for every subscriber, and `getCommentPage` for every HTTP read. Every
   * signed-in member reads every project's discussion; nothing more to check yet, as for projects.
   */
  authorizeRead(_viewer: Viewer): void {}

  /** A page of a project's comments, newest first; `before` is the previous page's `nextCursor`. */
  async getCommentPage(
    viewer: Viewer,
    projectId: string,
    page: { limit: number; before?: string },
  ): Promise<CommentPage> {
    this.authorizeRead(viewer);
    const { db } = this.deps;
    const project = await findProjectRow(db, projectId);
    if (!project || project.completed_at !== null) throw notFound(messages.projectNotFound);
    let beforeSeq: number | undefined;
    if (page.before !== undefined) {
      const cursor = await findCommentOfProject(db, projectId, page.before);
      if (cursor === null) throw invalidArgument({ before: messages.commentCursorInvalid });
      beforeSeq = cursor.seq;
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

  /** Comments are rows: an append never rewrites the project, so concurrent commenters lose nothing. */
  async addComment(viewer: Viewer, projectId: string, input: AddCommentInput): Promise<Comment> {
    const comment = {
      id: newId(),
      project_id: projectId,
      author_id: viewer.uid,
      content: input.content,
      created_at: nowIso(),
    };
    await this.deps.writes.run(async (trx, write) => {
      if (!(await insertCommentIfProjectExists(trx, comment))) throw notFound(messages.projectNotFound);
      const mentioned = mentionedUserIds(input.content);
      const active = await activeUserIdsOf(trx, mentioned);
      const told = { projectId, commentId: comment.id, actorId: viewer.uid };
      // Only the project's comments queries re-run (and the bells of whom it told); every list stays as it is.
      write.changed({ collection: 'comments', id: comment.id, after: { projectId } }).emit(
        webhookEvent('comment.added', viewer, {
          project: { id: projectId },
          comment: {
            id: comment.id,
            content: comment.content,
            authorId: viewer.uid,
            createdAt: comment.created_at,
          },
        }),
      );
      // A mention wins over 'commented': drafts earlier in the list take a user first.
      write.notify(
        { kind: 'mentioned', recipientIds: mentioned.filter((userId) => active.has(userId)), ...told },
        { kind: 'commented', recipientIds: await activeProjectMembersOf(trx, projectId), ...told },
      );
    });
    return presentComment({ ...comment, edited_at: null, ...authorOf(viewer) });
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
    await this.requireOwnComment(viewer, projectId, commentId, messages.onlyAuthorEditsComment);
    const editedAt = nowIso();
    await this.deps.writes.run(async (trx, write) => {
      const edited = await updateCommentOf(trx, {
        projectId,
        commentId,
        authorId: viewer.uid,
        content: input.content,
        editedAt,
      });
      if (!edited) throw notFound(messages.commentNotFound);
      write.changed({ collection: 'comments', id: commentId, after: { projectId } });
    });
    // Read back for the author's current name and picture; a delete racing in between still answers.
    return (
      (await findComment(this.deps.db, commentId)) ??
      presentComment({
        id: commentId,
        project_id: projectId,
        author_id: viewer.uid,
        content: input.content,
        created_at: editedAt,
        edited_at: editedAt,
        ...authorOf(viewer),
      })
    );
  }

  /** An author deletes their own comment; pages that showed it get one `removed` change. */
  async deleteComment(viewer: Viewer, projectId: string, commentId: string): Promise<void> {
    await this.requireOwnComment(viewer, projectId, commentId, messages.onlyAuthorDeletesComment);
    await this.deps.writes.run(async (trx, write) => {
      const deleted = await deleteCommentOf(trx, { projectId, commentId, authorId: viewer.uid });
      if (!deleted) throw notFound(messages.commentNotFound);
      // `after: null`: only the queries whose last result held the comment are re-read.
      write.changed({ collection: 'comments', id: commentId, after: null });
    });
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
    const comment = await findCommentOfProject(db, projectId, commentId);
    if (comment === null) throw notFound(messages.commentNotFound);
    if (comment.authorId !== viewer.uid) throw forbidden(forbiddenMessage);
  }
}

/** The author's name and picture as the viewer carries them, for an answer built from what was written. */
const authorOf = (viewer: Viewer) => ({ display_name: viewer.displayName, photo_url: viewer.photoURL });

import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Comment } from '../../common';
import type { Database } from '../db/schema';
import { presentComment, type CommentRow } from './comment-presenter';

/**
 * Appends a comment in one statement that reads the project too, so a comment can never outlive a
 * project completed at the same moment. False when there is no such project.
 */
export async function insertCommentIfProjectExists(
  db: Kysely<Database>,
  comment: Omit<CommentRow, 'edited_at' | 'display_name' | 'photo_url'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('comments')
    .columns(['id', 'project_id', 'author_id', 'content', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('projects')
        .select([
          eb.val(comment.id).as('id'),
          'projects.id as project_id',
          eb.val(comment.author_id).as('author_id'),
          eb.val(comment.content).as('content'),
          eb.val(comment.created_at).as('created_at'),
        ])
        .where('projects.id', '=', comment.project_id)
        .where('projects.completed_at', 'is', null),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

const selectComments = (db: Kysely<Database>) =>
  db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .select([
      'comments.id',
      'comments.project_id',
      'comments.author_id',
      'users.display_name',
      'users.photo_url',
      'comments.content',
      'comments.created_at',
      'comments.edited_at',
    ]);

/**
 * A project's comments newest first (commit order, reversed), at most `limit`; with `beforeSeq`, only
 * those committed before that one. Served by the (project_id, seq) index whatever the project's size.
 */
export async function listComments(
  db: Kysely<Database>,
  projectId: string,
  page: { limit: number; beforeSeq?: number },
): Promise<Comment[]> {
  let select = selectComments(db).where('comments.project_id', '=', projectId);
  if (page.beforeSeq !== undefined) select = select.where('comments.seq', '<', page.beforeSeq);
  return (await select.orderBy('comments.seq', 'desc').limit(page.limit).execute()).map(presentComment);
}

/**
 * A comment of this project (a comment is addressed through its project): where it sits in the project's
 * order, to page from it, and who wrote it; null when the project has no such comment.
 */
export async function findCommentOfProject(
  db: Kysely<Database>,
  projectId: string,
  commentId: string,
): Promise<{ seq: number; authorId: string } | null> {
  const row = await db
    .selectFrom('comments')
    .select(['seq', 'author_id'])
    .where('id', '=', commentId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row ? { seq: Number(row.seq), authorId: row.author_id } : null;
}

export async function findComment(db: Kysely<Database>, id: string): Promise<Comment | null> {
  const row = await selectComments(db).where('comments.id', '=', id).executeTakeFirst();
  return row ? presentComment(row) : null;
}

/** The project's id while it is open, as a subquery of a comment's own write statement. */
const openProjectId = (db: Kysely<Database>, projectId: string) =>
  db.selectFrom('projects').select('id').where('id', '=', projectId).where('completed_at', 'is', null);

/**
 * The author's own comment in this project, for an edit or a delete: the author condition is in the
 * statement, so a check-then-write race cannot let someone else's through, and so is the project being
 * open, even if it was completed since the caller looked.
 */
const ownCommentInOpenProject =
  (db: Kysely<Database>, target: { projectId: string; commentId: string; authorId: string }) =>
  (eb: ExpressionBuilder<Database, 'comments'>) =>
    eb.and([
      eb('id', '=', target.commentId),
      eb('project_id', '=', target.projectId),
      eb('author_id', '=', target.authorId),
      eb('project_id', 'in', openProjectId(db, target.projectId)),
    ]);

/** Rewrites a comment of this author in this project; false when there is none (gone meanwhile). */
export async function updateCommentOf(
  db: Kysely<Database>,
  edit: { projectId: string; commentId: string; authorId: string; content: string; editedAt: string },
): Promise<boolean> {
  const result = await db
    .updateTable('comments')
    .set({ content: edit.content, edited_at: edit.editedAt })
    .where(ownCommentInOpenProject(db, edit))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes a comment of this author in this project; false when there is none (gone meanwhile). */
export async function deleteCommentOf(
  db: Kysely<Database>,
  target: { projectId: string; commentId: string; authorId: string },
): Promise<boolean> {
  const result = await db
    .deleteFrom('comments')
    .where(ownCommentInOpenProject(db, target))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

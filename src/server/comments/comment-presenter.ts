import type { Selectable } from 'kysely';
import type { Comment } from '../../common';
import type { Database } from '../db/schema';

/** A comment's row with its author's name and picture, as the repository reads it. */
export type CommentRow = Omit<Selectable<Database['comments']>, 'seq'> &
  Pick<Selectable<Database['users']>, 'display_name' | 'photo_url'>;

/**
 * The `Comment` shape, written once: the pages and the live query read rows through it, and the answers of
 * an add and of an edit (built from what was written) too.
 */
export function presentComment(row: CommentRow): Comment {
  return {
    id: row.id,
    projectId: row.project_id,
    authorId: row.author_id,
    displayName: row.display_name,
    photoURL: row.photo_url,
    content: row.content,
    createdAt: row.created_at,
    editedAt: row.edited_at,
  };
}

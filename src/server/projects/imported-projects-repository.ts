import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * What the importers (Firebase, Trello) write: projects and comments with the ids and times they bring
 * from their source, in the caller's transaction; the caller declares what changed.
 */

/** Ids per `in (…)` list: well under both engines' limits on bound parameters. */
const CHUNK = 500;

/** Reads `values` (duplicates dropped) a bounded `in (…)` list at a time. */
export async function inChunks<T>(
  values: readonly string[],
  read: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const unique = [...new Set(values)];
  const rows: T[] = [];
  for (let start = 0; start < unique.length; start += CHUNK) {
    rows.push(...(await read(unique.slice(start, start + CHUNK))));
  }
  return rows;
}

export async function existingProjectIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) =>
    db.selectFrom('projects').select('id').where('id', 'in', chunk).execute(),
  );
  return new Set(rows.map((row) => row.id));
}

export interface ImportedProjectRow {
  id: string;
  name: string;
  details: string;
  dueDate: string;
  category: string;
  createdBy: string;
  createdAt: string;
  /** Set for a project that was already done at its source: completed by its creator then. */
  completedAt: string | null;
  assigneeIds: readonly string[];
  now: string;
}

/** A project with its assignees in the order given. */
export async function insertImportedProject(
  db: Kysely<Database>,
  project: ImportedProjectRow,
): Promise<void> {
  await db
    .insertInto('projects')
    .values({
      id: project.id,
      name: project.name,
      details: project.details,
      due_date: project.dueDate,
      category: project.category,
      created_by: project.createdBy,
      created_at: project.createdAt,
      updated_at: project.now,
      completed_at: project.completedAt,
      completed_by: project.completedAt ? project.createdBy : null,
    })
    .execute();
  if (project.assigneeIds.length === 0) return;
  await db
    .insertInto('project_assignees')
    .values(
      project.assigneeIds.map((userId, position) => ({ project_id: project.id, user_id: userId, position })),
    )
    .execute();
}

export interface ImportedCommentRow {
  id: string;
  projectId: string;
  authorId: string;
  content: string;
  createdAt: string;
}

/** Comments in the order given, which is the order they are listed in (their commit sequence). */
export async function insertImportedComments(
  db: Kysely<Database>,
  comments: readonly ImportedCommentRow[],
): Promise<void> {
  for (const comment of comments) {
    await db
      .insertInto('comments')
      .values({
        id: comment.id,
        project_id: comment.projectId,
        author_id: comment.authorId,
        content: comment.content,
        created_at: comment.createdAt,
        edited_at: null,
      })
      .execute();
  }
}

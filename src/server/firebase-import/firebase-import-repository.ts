import type { Kysely } from 'kysely';
import { displayNameKey, nameSearchKey } from '../../common';
import type { AccountStatus, Database } from '../db/schema';

/** Ids per `in (…)` list: well under both engines' limits on bound parameters. */
const CHUNK = 500;

async function inChunks<T>(values: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const unique = [...new Set(values)];
  const rows: T[] = [];
  for (let start = 0; start < unique.length; start += CHUNK) {
    rows.push(...(await read(unique.slice(start, start + CHUNK))));
  }
  return rows;
}

/** Which of these user ids exist (in any status: a deleted account's id is still taken). */
export async function existingUserIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) =>
    db.selectFrom('users').select('id').where('id', 'in', chunk).execute(),
  );
  return new Set(rows.map((row) => row.id));
}

/** The accounts that already go by these (lower-cased) emails: email key → account id. */
export async function accountsByEmailKey(
  db: Kysely<Database>,
  emailKeys: readonly string[],
): Promise<Map<string, string>> {
  const rows = await inChunks(emailKeys, (chunk) =>
    db.selectFrom('users').select(['id', 'email_key']).where('email_key', 'in', chunk).execute(),
  );
  return new Map(rows.map((row) => [row.email_key, row.id]));
}

export async function existingProjectIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) =>
    db.selectFrom('projects').select('id').where('id', 'in', chunk).execute(),
  );
  return new Set(rows.map((row) => row.id));
}

export interface ImportedUserRow {
  id: string;
  email: string;
  passwordHash: string;
  displayName: string;
  photoURL: string;
  status: AccountStatus;
  createdAt: string;
  lastActiveAt: string | null;
  now: string;
}

/** A member made from a Firebase account: offline (presence comes from connections), a member. */
export async function insertImportedUser(db: Kysely<Database>, user: ImportedUserRow): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: user.email.toLowerCase(),
      password_hash: user.passwordHash,
      display_name: user.displayName,
      search_name: nameSearchKey(user.displayName),
      name_key: displayNameKey(user.displayName),
      photo_url: user.photoURL,
      online: 0,
      role: 'member',
      status: user.status,
      last_active_at: user.lastActiveAt,
      created_at: user.createdAt,
      updated_at: user.now,
    })
    .execute();
}

export interface ImportedProjectRow {
  id: string;
  name: string;
  details: string;
  dueDate: string;
  category: string;
  createdBy: string;
  createdAt: string;
  assigneeIds: readonly string[];
  now: string;
}

/** An open project with its assignees in the order given. */
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
      completed_at: null,
      completed_by: null,
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

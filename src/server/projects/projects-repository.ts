import type { Kysely, Selectable } from 'kysely';
import type { Comment, LiveWhere, Project, ProjectCategory, UserRef } from '../../common';
import type { Database, ProjectsTable } from '../db/schema';

type ProjectRow = Selectable<ProjectsTable>;

export interface ProjectQuery {
  category?: string;
  assignedTo?: string;
  orderBy: { column: 'created_at' | 'due_date' | 'name'; direction: 'asc' | 'desc' };
  limit?: number;
}

/** Columns a live query may filter or order projects by, by the field name the API shows. */
export const PROJECT_ORDER_COLUMNS = { createdAt: 'created_at', dueDate: 'due_date', name: 'name' } as const;

export function projectQueryFrom(
  where: LiveWhere[] | undefined,
): Pick<ProjectQuery, 'category' | 'assignedTo'> | null {
  const query: Pick<ProjectQuery, 'category' | 'assignedTo'> = {};
  for (const clause of where ?? []) {
    if (clause.field === 'category' && clause.op === '==') query.category = String(clause.value);
    else if (clause.field === 'assignedUserIds' && clause.op === 'array-contains')
      query.assignedTo = String(clause.value);
    else return null;
  }
  return query;
}

export async function queryProjects(db: Kysely<Database>, query: ProjectQuery): Promise<Project[]> {
  let select = db.selectFrom('projects').selectAll();
  if (query.category !== undefined) select = select.where('category', '=', query.category);
  if (query.assignedTo !== undefined) {
    const assignedTo = query.assignedTo;
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('project_assignees')
          .select('project_assignees.project_id')
          .whereRef('project_assignees.project_id', '=', 'projects.id')
          .where('project_assignees.user_id', '=', assignedTo),
      ),
    );
  }
  select = select
    .orderBy(query.orderBy.column, query.orderBy.direction)
    .orderBy('id', query.orderBy.direction);
  if (query.limit !== undefined) select = select.limit(query.limit);
  return presentProjects(db, await select.execute());
}

export async function findProject(db: Kysely<Database>, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One project as the API shows it (its comments are read apart, a page at a time). */
export async function getProject(db: Kysely<Database>, id: string): Promise<Project | null> {
  const row = await findProject(db, id);
  if (!row) return null;
  const [project] = await presentProjects(db, [row]);
  return project ?? null;
}

const selectComments = (db: Kysely<Database>) =>
  db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .select([
      'comments.id as id',
      'comments.project_id as projectId',
      'comments.author_id as authorId',
      'users.display_name as displayName',
      'users.photo_url as photoURL',
      'comments.content as content',
      'comments.created_at as createdAt',
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
  return (await select.orderBy('comments.seq', 'desc').limit(page.limit).execute()) satisfies Comment[];
}

/** Where a comment sits in its project's order, to page from it. */
export async function findCommentSeq(
  db: Kysely<Database>,
  projectId: string,
  commentId: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('comments')
    .select('seq')
    .where('id', '=', commentId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.seq);
}

export async function getComment(db: Kysely<Database>, id: string): Promise<Comment | null> {
  return (await selectComments(db).where('comments.id', '=', id).executeTakeFirst()) ?? null;
}

/** Turns rows into the spec's shape with two batched lookups (assignees, creators), never one per row. */
async function presentProjects(db: Kysely<Database>, rows: ProjectRow[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const assignees = await db
    .selectFrom('project_assignees')
    .innerJoin('users', 'users.id', 'project_assignees.user_id')
    .select([
      'project_assignees.project_id as projectId',
      'users.id as id',
      'users.display_name as displayName',
      'users.photo_url as photoURL',
    ])
    .where('project_assignees.project_id', 'in', ids)
    .orderBy('project_assignees.project_id')
    .orderBy('project_assignees.position')
    .execute();
  const creatorIds = [...new Set(rows.map((row) => row.created_by))];
  const creators = await db
    .selectFrom('users')
    .select(['id', 'display_name as displayName', 'photo_url as photoURL'])
    .where('id', 'in', creatorIds)
    .execute();

  const assigneesByProject = new Map<string, UserRef[]>();
  for (const { projectId, ...user } of assignees) {
    const list = assigneesByProject.get(projectId) ?? [];
    list.push(user);
    assigneesByProject.set(projectId, list);
  }
  const creatorsById = new Map(creators.map((creator) => [creator.id, creator]));
  return rows.map((row) => {
    const assignedUsersList = assigneesByProject.get(row.id) ?? [];
    return {
      id: row.id,
      name: row.name,
      details: row.details,
      dueDate: row.due_date,
      category: row.category as ProjectCategory,
      assignedUsersList,
      assignedUserIds: assignedUsersList.map((user) => user.id),
      createdBy: creatorsById.get(row.created_by) ?? { id: row.created_by, displayName: '', photoURL: '' },
      createdAt: row.created_at,
    };
  });
}

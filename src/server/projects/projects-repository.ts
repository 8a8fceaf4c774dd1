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

/** One project with its comments, in commit order. */
export async function getProjectWithComments(db: Kysely<Database>, id: string): Promise<Project | null> {
  const row = await findProject(db, id);
  if (!row) return null;
  const [project] = await presentProjects(db, [row]);
  const comments = await db
    .selectFrom('comments')
    .innerJoin('users', 'users.id', 'comments.author_id')
    .select([
      'comments.id as id',
      'comments.author_id as authorId',
      'users.display_name as displayName',
      'users.photo_url as photoURL',
      'comments.content as content',
      'comments.created_at as createdAt',
    ])
    .where('comments.project_id', '=', id)
    .orderBy('comments.seq')
    .execute();
  return project ? { ...project, comments: comments satisfies Comment[] } : null;
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

import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database, DialectName } from '../db/schema';
import { openProjectsInOrder, type ProjectKey, type ProjectQuery } from '../projects/projects-repository';

/** One project as a spreadsheet row shows it: the people by name, its comments counted. */
export interface ExportRow {
  id: string;
  name: string;
  category: string;
  dueDate: string;
  assignees: string[];
  creator: string;
  createdAt: string;
  completedAt: string | null;
  commentCount: number;
}

interface RawExportRow {
  id: string;
  name: string;
  category: string;
  due_date: string;
  created_at: string;
  completed_at: string | null;
  creator: string | null;
  assignees: string | string[] | null;
  comment_count: number | string | bigint;
}

/**
 * The columns of a row, over `projects` as `p`: the assignees' names in their order as a JSON array (text
 * on both dialects), the creator's name (empty for an account that is gone), the comment count
 * (`comments_project` indexes it).
 */
function exportColumns(dialect: DialectName) {
  const assignees =
    dialect === 'sqlite'
      ? sql<string>`(select json_group_array(u.display_name) from
          (select user_id from project_assignees where project_id = p.id order by position) a
          join users u on u.id = a.user_id)`
      : sql<string>`(select coalesce(json_agg(u.display_name order by a.position), '[]'::json)::text
          from project_assignees a join users u on u.id = a.user_id where a.project_id = p.id)`;
  return [
    sql.ref('p.id').as('id'),
    sql.ref('p.name').as('name'),
    sql.ref('p.category').as('category'),
    sql.ref('p.due_date').as('due_date'),
    sql.ref('p.created_at').as('created_at'),
    sql.ref('p.completed_at').as('completed_at'),
    sql<string | null>`(select display_name from users where users.id = p.created_by)`.as('creator'),
    assignees.as('assignees'),
    sql<number>`(select count(*) from comments c where c.project_id = p.id)`.as('comment_count'),
  ];
}

function presentRow(row: RawExportRow): ExportRow {
  const assignees =
    typeof row.assignees === 'string' ? (JSON.parse(row.assignees) as unknown) : row.assignees;
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    dueDate: row.due_date,
    assignees: Array.isArray(assignees) ? assignees.map(String) : [],
    creator: row.creator ?? '',
    createdAt: row.created_at,
    completedAt: row.completed_at,
    commentCount: Number(row.comment_count),
  };
}

async function readRows(
  db: Kysely<Database>,
  dialect: DialectName,
  // The page's rows, with every column of `projects`, already ordered and limited.
  page: SelectQueryBuilder<Database, 'projects', object>,
  order: string,
): Promise<ExportRow[]> {
  const rows = await db
    .selectFrom(page.selectAll().as('p'))
    .select(exportColumns(dialect))
    .orderBy(sql.raw(order))
    .execute();
  return (rows as unknown as RawExportRow[]).map(presentRow);
}

/**
 * A page of open projects as the dashboard lists them (the same filters, order and keyset as
 * `queryProjects`), as export rows. The caller passes the last row's key as `startAfter` for the next.
 */
export function readOpenExportPage(
  db: Kysely<Database>,
  dialect: DialectName,
  query: ProjectQuery & { limit: number },
): Promise<ExportRow[]> {
  const { column, direction } = query.orderBy;
  return readRows(db, dialect, openProjectsInOrder(db, query), `p.${column} ${direction}, p.id ${direction}`);
}

/** A page of completed projects, the latest completion first, as the completed list shows them. */
export function readCompletedExportPage(
  db: Kysely<Database>,
  dialect: DialectName,
  page: { after?: ProjectKey | undefined; limit: number },
): Promise<ExportRow[]> {
  let select = db.selectFrom('projects').where('completed_at', 'is not', null);
  if (page.after) {
    const [value, id] = page.after;
    select = select.where((eb) => eb(eb.refTuple('completed_at', 'id'), '<', eb.tuple(value, id)));
  }
  select = select.orderBy('completed_at', 'desc').orderBy('id', 'desc').limit(page.limit);
  return readRows(db, dialect, select, 'p.completed_at desc, p.id desc');
}

/** The projects with these ids (open or completed), in the order of the ids; those gone are left out. */
export async function readExportRowsByIds(
  db: Kysely<Database>,
  dialect: DialectName,
  ids: readonly string[],
): Promise<ExportRow[]> {
  if (ids.length === 0) return [];
  const rows = await readRows(db, dialect, db.selectFrom('projects').where('id', 'in', [...ids]), 'p.id');
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

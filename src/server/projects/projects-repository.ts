import { sql, type Insertable, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { CompletedProject, Project, UserRef } from '../../common';
import type { Database, DialectName, ProjectsTable } from '../db/schema';
import type { StatementNotify } from '../db/change-bus';
import type { DeclaredWrite } from '../db/unit-of-work';
import {
  insertNotificationsUnlessOptedOutSql,
  type NotificationRow,
} from '../notifications/notifications-repository';
import { listAssignableUserRefs } from '../users/users-repository';
import { presentProject, type ProjectColumns, type ProjectPeople } from './project-presenter';

type ProjectRow = Selectable<ProjectsTable>;

/** A keyset bound: the order column's value and the id of one project (`startAfter` / `endAt`). */
export type ProjectKey = readonly [value: string, id: string];

export interface ProjectQuery {
  category?: string;
  assignedTo?: string;
  /** Only projects due on or after this day (YYYY-MM-DD): the calendar's range. */
  dueFrom?: string | undefined;
  /** Only projects due before this day. */
  dueBefore?: string | undefined;
  /**
   * Completed projects instead of open ones: only with a due-date range (the calendar's 'Show completed',
   * docs/decisions/071-calendar-and-theme-follow-ups.md), which the callers enforce.
   */
  completed?: boolean | undefined;
  orderBy: { column: 'created_at' | 'due_date' | 'name'; direction: 'asc' | 'desc' };
  limit?: number;
  /** Only projects after this one in the order. */
  startAfter?: ProjectKey | undefined;
  /** Only projects up to and including this one in the order. */
  endAt?: ProjectKey | undefined;
}

/**
 * Open projects (not completed; completed ones when `completed` is set) matching the filters, in order
 * (ties by id), within the keyset bounds.
 * Each order has a partial index on (filter, column, id) over open projects, so a page deep in the list
 * reads as few rows as the first (docs/decisions/021-project-paging.md).
 */
export async function queryProjects(db: Kysely<Database>, query: ProjectQuery): Promise<Project[]> {
  return presentProjects(db, await openProjectsInOrder(db, query).selectAll().execute());
}

/** The rows `queryProjects` reads, before any column is chosen (the spreadsheet export reads the same). */
export function openProjectsInOrder(db: Kysely<Database>, query: ProjectQuery) {
  // Completed projects have no paging index: they are read only by a due-date range of at most 42 days.
  let select = db.selectFrom('projects').where('completed_at', query.completed ? 'is not' : 'is', null);
  const { column, direction } = query.orderBy;
  const after = direction === 'desc' ? '<' : '>';
  const upTo = direction === 'desc' ? '>=' : '<=';
  if (query.startAfter) {
    const [value, id] = query.startAfter;
    select = select.where((eb) => eb(eb.refTuple(column, 'id'), after, eb.tuple(value, id)));
  }
  if (query.endAt) {
    const [value, id] = query.endAt;
    select = select.where((eb) => eb(eb.refTuple(column, 'id'), upTo, eb.tuple(value, id)));
  }
  if (query.dueFrom !== undefined) select = select.where('due_date', '>=', query.dueFrom);
  if (query.dueBefore !== undefined) select = select.where('due_date', '<', query.dueBefore);
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
  select = select.orderBy(column, direction).orderBy('id', direction);
  return query.limit === undefined ? select : select.limit(query.limit);
}

/** A page of projects as the JSON text of their array, and the key of its last project when more follow. */
export interface ProjectsPageJson {
  projectsJson: Buffer;
  next: ProjectKey | null;
}

const userRefJson = (alias: string) =>
  sql.raw(
    `json_object('id', ${alias}.id, 'displayName', ${alias}.display_name, 'photoURL', ${alias}.photo_url)`,
  );

/**
 * SQLite only: the page `queryProjects` would present, written as JSON by SQLite itself in one statement
 * (the same shape, checked against `queryProjects` by projects-page-json.int.test.ts). Building ≈ 3,500
 * objects and strings in JS and stringifying them cost about twice as much and left the young generation
 * to collect (docs/decisions/033-list-json-and-one-sync-per-write.md). One row more than the page tells whether another
 * follows; its `row_number` picks the page's last key in the same statement, so page and cursor come from
 * one snapshot.
 *
 * The arrays are aggregated in scan order: each comes from a subquery ordered by `position` (and the page
 * by the order asked), which SQLite runs as an ordered co-routine. An aggregate `ORDER BY` gives the same
 * result with a sorter per project, which is slower; the test above pins the order.
 */
export async function queryProjectsPageJson(
  db: Kysely<Database>,
  query: ProjectQuery & { limit: number },
): Promise<ProjectsPageJson> {
  const { column, direction } = query.orderBy;
  const { limit } = query;
  const order = sql.raw(`${column} ${direction}, id ${direction}`);
  const page = openProjectsInOrder(db, { ...query, limit: limit + 1 })
    .selectAll()
    .select(sql<number>`row_number() over (order by ${order})`.as('rn'));
  const assignees = sql.raw(
    '(select user_id from project_assignees where project_id = p.id order by position) a join users u on u.id = a.user_id',
  );
  const people: Record<keyof ProjectPeople, RawBuilder<unknown>> = {
    assignedUsersList: sql`(select json_group_array(${userRefJson('u')}) from ${assignees})`,
    assignedUserIds: sql`(select json_group_array(a.user_id) from ${assignees})`,
    createdBy: sql`coalesce(
          (select ${userRefJson('u')} from users u where u.id = p.created_by),
          json_object('id', p.created_by, 'displayName', '', 'photoURL', '')
        )`,
  };
  // The presenter moves values without changing them: given each column's SQL, it answers each field's.
  const columns = new Proxy({} as ProjectColumns, { get: (_row, column: string) => sql.ref(`p.${column}`) });
  const fieldSql = presentProject(columns, people as unknown as ProjectPeople) as unknown as Record<
    keyof Project,
    RawBuilder<unknown>
  >;
  const fields = Object.entries(fieldSql).map(([field, expression]) => sql`${sql.lit(field)}, ${expression}`);
  const row = await db
    .selectFrom(page.as('p'))
    .select([
      sql<Buffer>`cast(json_group_array(json_object(${sql.join(fields)}))
        filter (where p.rn <= ${limit}) as blob)`.as('projectsJson'),
      sql<number>`count(*)`.as('fetched'),
      sql<string | null>`max(case when p.rn = ${limit} then ${sql.ref(`p.${column}`)} end)`.as('lastValue'),
      sql<string | null>`max(case when p.rn = ${limit} then p.id end)`.as('lastId'),
    ])
    .executeTakeFirstOrThrow();
  const more = row.fetched > limit && row.lastValue !== null && row.lastId !== null;
  return {
    projectsJson: row.projectsJson,
    next: more ? [String(row.lastValue), String(row.lastId)] : null,
  };
}

/** A project's row, open or completed. */
export async function findProjectRow(db: Kysely<Database>, id: string): Promise<ProjectRow | null> {
  return (await db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** One open project as the API shows it (its comments are read apart, a page at a time). */
export async function findProject(db: Kysely<Database>, id: string): Promise<Project | null> {
  const row = await findProjectRow(db, id);
  if (!row || row.completed_at !== null) return null;
  const [project] = await presentProjects(db, [row]);
  return project ?? null;
}

/**
 * Inserts a project and its assignees if every assignee is an active user, and answers those users (in no
 * set order); answers null when one is not, and then writes nothing. On PostgreSQL the check, the project
 * and its assignees are one statement, one round trip (docs/decisions/033-list-json-and-one-sync-per-write.md,
 * fourth addendum).
 */
async function insertProjectForActiveAssignees(
  db: Kysely<Database>,
  dialect: DialectName,
  row: Insertable<ProjectsTable>,
  assigneeIds: readonly string[],
): Promise<UserRef[] | null> {
  if (dialect !== 'postgres' || assigneeIds.length === 0) {
    const known = await listAssignableUserRefs(db, assigneeIds);
    if (known.length !== assigneeIds.length) return null;
    await insertProject(db, row, assigneeIds);
    return known;
  }
  const { rows } = await sql<UserRef>`
    with ${projectForActiveAssigneesParts(row, assigneeIds)}
    select * from known`.execute(db);
  return rows.length === assigneeIds.length ? rows : null;
}

/**
 * `insertProjectForActiveAssignees` on PostgreSQL, with the assignees' notifications (those not opted out)
 * and the NOTIFY of the project's change and of theirs, all one statement: its own commit makes them
 * durable and delivers the NOTIFY, so the create needs no transaction (docs/decisions/041-create-in-one-statement.md).
 */
async function insertProjectNotifying(
  db: Kysely<Database>,
  row: Insertable<ProjectsTable>,
  assigneeIds: readonly string[],
  notifications: NotificationRow[],
  notify: StatementNotify,
): Promise<UserRef[] | null> {
  const written = sql`exists (select 1 from project)`;
  const toldChanges =
    notifications.length === 0
      ? sql`''`
      : sql`coalesce((
          select string_agg(change.text, '' order by change.position)
          from told join (values ${sql.join(
            [...notify.perRow].map(([userId, text], position) => sql`(${userId}, ${text}, ${position}::int)`),
          )}) as change (user_id, text, position) on change.user_id = told.user_id
        ), '')`;
  const told =
    notifications.length === 0
      ? sql``
      : sql`, told as (${insertNotificationsUnlessOptedOutSql(notifications, written)})`;
  const { rows } = await sql<{ known: UserRef[]; notified: unknown }>`
    with ${projectForActiveAssigneesParts(row, assigneeIds)}${told}
    select
      (select coalesce(json_agg(known), '[]'::json) from known) as known,
      case when ${written} then pg_notify(${notify.channel}, ${notify.head}::text || ${toldChanges} || ']') end
        as notified`.execute(db);
  const known = rows[0]?.known ?? [];
  return known.length === assigneeIds.length ? known : null;
}

/**
 * A new project and its assignees, written only when every assignee is an active user (otherwise nothing is
 * written: null); answers those users. On PostgreSQL, with assignees, the unit of work may write it as one
 * statement with their notifications and its NOTIFY (`UnitOfWork.runDeclared`).
 */
export function insertNewProject(
  dialect: DialectName,
  row: Insertable<ProjectsTable>,
  assigneeIds: readonly string[],
): DeclaredWrite<UserRef[], NotificationRow> {
  return {
    inTransaction: (trx) => insertProjectForActiveAssignees(trx, dialect, row, assigneeIds),
    asOneStatement:
      dialect === 'postgres' && assigneeIds.length > 0
        ? (db, { notifications, notify }) =>
            insertProjectNotifying(db, row, assigneeIds, notifications, notify)
        : undefined,
  };
}

/**
 * The `with` parts of a project's insert on PostgreSQL: `known`, the assignees that are active users; then
 * `project` (its id) and `assigned`, written only when every assignee is known. The assignees' foreign key
 * is checked at the end of the statement, when the project is there.
 */
function projectForActiveAssigneesParts(row: Insertable<ProjectsTable>, assigneeIds: readonly string[]) {
  const columns = Object.keys(row) as (keyof typeof row & string)[];
  const wanted = assigneeIds.map((userId, position) => sql`(${userId}, ${position}::int)`);
  return sql`known as (
      select id, display_name as "displayName", photo_url as "photoURL" from users
      where id in (${sql.join(assigneeIds)}) and status = 'active'
    ), project as (
      insert into projects (${sql.join(columns.map((column) => sql.ref(column)))})
      select ${sql.join(columns.map((column) => row[column] ?? null))}
      where (select count(*) from known) = ${assigneeIds.length}
      returning id
    ), assigned as (
      insert into project_assignees (project_id, user_id, position)
      select project.id, wanted.user_id, wanted.position
      from project cross join (values ${sql.join(wanted)}) as wanted (user_id, position)
    )`;
}

/**
 * A new project and its assignees, in the order given, as two statements: SQLite allows no write in a
 * `with`, and a statement there costs no round trip. Run it inside the caller's transaction.
 */
async function insertProject(
  db: Kysely<Database>,
  row: Insertable<ProjectsTable>,
  assigneeIds: readonly string[],
): Promise<void> {
  await db.insertInto('projects').values(row).execute();
  if (assigneeIds.length === 0) return;
  await db
    .insertInto('project_assignees')
    .values(assigneeIds.map((userId, position) => ({ project_id: row.id, user_id: userId, position })))
    .execute();
}

/**
 * Writes an edit if the project is open and still at `version`; false otherwise (changed meanwhile, or
 * completed). The assignees are replaced in the caller's transaction.
 */
export async function updateProjectAtVersion(
  db: Kysely<Database>,
  id: string,
  version: number,
  fields: { name: string; details: string; due_date: string; category: string; updated_at: string },
  assigneeIds: readonly string[],
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ ...fields, version: sql`version + 1` })
    .where('id', '=', id)
    .where('version', '=', version)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await db.deleteFrom('project_assignees').where('project_id', '=', id).execute();
  await db
    .insertInto('project_assignees')
    .values(assigneeIds.map((userId, position) => ({ project_id: id, user_id: userId, position })))
    .execute();
  return true;
}

/** 'Mark as Complete': the project leaves the open lists but is kept; false if it was not open. */
export async function markProjectCompleted(
  db: Kysely<Database>,
  id: string,
  completedBy: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ completed_at: now, completed_by: completedBy, updated_at: now })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Brings a completed project back to the open lists; false if it was not completed. */
export async function reopenProject(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ completed_at: null, completed_by: null, updated_at: now })
    .where('id', '=', id)
    .where('completed_at', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a project for good; its assignees and comments go with it (cascade). */
export async function deleteProject(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Completed projects, the latest completion first (ties by id), after the keyset `after`. */
export async function listCompletedProjects(
  db: Kysely<Database>,
  page: { after?: ProjectKey | undefined; limit: number },
): Promise<CompletedProject[]> {
  let select = db.selectFrom('projects').selectAll().where('completed_at', 'is not', null);
  if (page.after) {
    const [value, id] = page.after;
    select = select.where((eb) => eb(eb.refTuple('completed_at', 'id'), '<', eb.tuple(value, id)));
  }
  const rows = await select.orderBy('completed_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
  return presentCompletedProjects(db, rows);
}

export async function findCompletedProject(
  db: Kysely<Database>,
  id: string,
): Promise<CompletedProject | null> {
  const row = await findProjectRow(db, id);
  if (!row || row.completed_at === null) return null;
  const [project] = await presentCompletedProjects(db, [row]);
  return project ?? null;
}

async function presentCompletedProjects(
  db: Kysely<Database>,
  rows: ProjectRow[],
): Promise<CompletedProject[]> {
  const projects = await presentProjects(db, rows);
  const completerIds = [...new Set(rows.flatMap((row) => (row.completed_by ? [row.completed_by] : [])))];
  const completers = new Map((await userRefsOf(db, completerIds)).map((user) => [user.id, user]));
  return projects.map((project, index) => {
    const row = rows[index];
    const completedBy = row?.completed_by ?? '';
    return {
      ...project,
      completedAt: row?.completed_at ?? '',
      completedBy: completers.get(completedBy) ?? unknownUser(completedBy),
    };
  });
}

/** A user whose row is gone, as a project still names them (the page SQLite writes does the same). */
const unknownUser = (id: string): UserRef => ({ id, displayName: '', photoURL: '' });

const userRefsOf = async (db: Kysely<Database>, ids: string[]): Promise<UserRef[]> =>
  ids.length === 0
    ? []
    : db
        .selectFrom('users')
        .select(['id', 'display_name as displayName', 'photo_url as photoURL'])
        .where('id', 'in', ids)
        .execute();

/**
 * Turns rows into the spec's shape with two batched lookups (assignments, then every user they and the
 * creators name, once each), never one per row. The assignments are read without joining `users` and
 * without an ORDER BY: a 1,000-row page joined `users` for each of its ≈ 2,500 assignments and sorted
 * them in a temporary b-tree, about half the time of an uncached page (docs/decisions/028-idle-footprint-and-fan-out.md);
 * 1–4 assignments per project are put in order here.
 */
async function presentProjects(db: Kysely<Database>, rows: ProjectRow[]): Promise<Project[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const assignments = await db
    .selectFrom('project_assignees')
    .select(['project_id', 'user_id', 'position'])
    .where('project_id', 'in', ids)
    .execute();
  const userIds = new Set<string>();
  for (const row of rows) userIds.add(row.created_by);
  for (const assignment of assignments) userIds.add(assignment.user_id);
  const usersById = new Map((await userRefsOf(db, [...userIds])).map((user) => [user.id, user]));

  const assignmentsByProject = new Map<string, { user_id: string; position: number }[]>();
  for (const assignment of assignments) {
    const list = assignmentsByProject.get(assignment.project_id);
    if (list) list.push(assignment);
    else assignmentsByProject.set(assignment.project_id, [assignment]);
  }
  return rows.map((row) => {
    const assignedUsersList: UserRef[] = [];
    const assignedUserIds: string[] = [];
    const list = assignmentsByProject.get(row.id);
    if (list) {
      if (list.length > 1) list.sort((a, b) => a.position - b.position);
      for (const { user_id } of list) {
        // The inner join this replaces dropped an assignment whose user row is gone; so does this.
        const user = usersById.get(user_id);
        if (!user) continue;
        assignedUsersList.push(user);
        assignedUserIds.push(user_id);
      }
    }
    return presentProject(row, {
      assignedUsersList,
      assignedUserIds,
      createdBy: usersById.get(row.created_by) ?? unknownUser(row.created_by),
    });
  });
}

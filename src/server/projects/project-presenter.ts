import type { Selectable } from 'kysely';
import type { Project, ProjectCategory, UserRef } from '../../common';
import { CALENDAR_ASSIGNEES_SHOWN, type CalendarProject } from '../../common/calendar';
import type { ProjectsTable } from '../db/schema';

/** The fields of a project that other rows hold: its assignees, in order, and its creator. */
export interface ProjectPeople {
  assignedUsersList: UserRef[];
  assignedUserIds: string[];
  createdBy: UserRef;
}

/** The columns of `projects` a project's shape reads. */
export type ProjectColumns = Pick<
  Selectable<ProjectsTable>,
  'id' | 'name' | 'details' | 'due_date' | 'category' | 'created_at' | 'version' | 'updated_at'
>;

/**
 * The `Project` shape, written once: each field from a column or from `people`, in the order the API shows
 * them. It only moves values, never changes them, so the page SQLite writes as JSON
 * (`queryProjectsPageJson`) hands it SQL expressions in their place and gets its `json_object` fields, in
 * the same order: a field added here reaches every answer (project-list-body.int.test.ts compares the two).
 */
export function presentProject(row: ProjectColumns, people: ProjectPeople): Project {
  return {
    id: row.id,
    name: row.name,
    details: row.details,
    dueDate: row.due_date,
    category: row.category as ProjectCategory,
    assignedUsersList: people.assignedUsersList,
    assignedUserIds: people.assignedUserIds,
    createdBy: people.createdBy,
    createdAt: row.created_at,
    version: row.version,
    updatedAt: row.updated_at,
  };
}

/**
 * A project in the calendar's slim shape (`shape: 'calendar'`): only what a day cell draws and a move
 * needs, so a month of 1,000 projects is a sixth of the whole ones to build, send, diff and take in.
 */
export function presentCalendarProject(project: Project, completed: boolean): CalendarProject {
  return {
    id: project.id,
    name: project.name,
    dueDate: project.dueDate,
    category: project.category,
    completed,
    assignees: project.assignedUsersList.slice(0, CALENDAR_ASSIGNEES_SHOWN),
    createdById: project.createdBy.id,
    version: project.version,
  };
}

import type { Selectable } from 'kysely';
import type { Project, UserRef } from '../../common';
import type { ProjectsTable } from '../db/schema';

/** The fields of a project that other rows hold: its assignees, in order, and its creator. */
export interface ProjectPeople {
  assignedUsersList: UserRef[];
  assignedUserIds: string[];
  createdBy: UserRef;
}

/**
 * The `Project` shape, written once: where each field comes from (a column of `projects`, or `people`), in
 * the order the API shows them. The presenter below and the page SQLite writes as JSON
 * (`queryProjectsPageJson`) both follow it, so a field added here reaches every answer.
 */
export const PROJECT_FIELDS = {
  id: 'id',
  name: 'name',
  details: 'details',
  dueDate: 'due_date',
  category: 'category',
  assignedUsersList: 'people',
  assignedUserIds: 'people',
  createdBy: 'people',
  createdAt: 'created_at',
  version: 'version',
  updatedAt: 'updated_at',
} as const satisfies {
  [Field in keyof Project]: Field extends keyof ProjectPeople ? 'people' : keyof Selectable<ProjectsTable>;
};

type ProjectColumn = Exclude<(typeof PROJECT_FIELDS)[keyof Project], 'people'>;

/** The columns a project's shape reads. */
export type ProjectColumns = Pick<Selectable<ProjectsTable>, ProjectColumn>;

const FIELDS = Object.entries(PROJECT_FIELDS) as [keyof Project, ProjectColumn | 'people'][];

/** A project as the API shows it, from its row and its people. */
export function presentProject(row: ProjectColumns, people: ProjectPeople): Project {
  const project: Partial<Record<keyof Project, unknown>> = {};
  for (const [field, source] of FIELDS) {
    project[field] = source === 'people' ? people[field as keyof ProjectPeople] : row[source];
  }
  return project as Project;
}

import { messages, type LiveQuery, type LiveWhere } from '../../common';
import type { LiveSource } from '../live/live-sources';
import { CALENDAR_SHAPE, calendarMessages, calendarRangeProblem } from '../../common/calendar';
import { invalidArgument } from '../core/app-error';
import type { ProjectQuery } from './projects-repository';
import type { ProjectsService } from './projects-service';
import { presentCalendarProject } from './project-presenter';

/** Columns a live query may order projects by, by the field name the API shows. */
const PROJECT_ORDER_COLUMNS = { createdAt: 'created_at', dueDate: 'due_date', name: 'name' } as const;

const isOrderField = (field: string): field is keyof typeof PROJECT_ORDER_COLUMNS =>
  Object.hasOwn(PROJECT_ORDER_COLUMNS, field);

type ProjectFilters = Pick<ProjectQuery, 'category' | 'assignedTo' | 'dueFrom' | 'dueBefore' | 'completed'>;

/** The filters a live query may use, in the service's terms; null for any other. */
function projectFiltersOf(where: LiveWhere[] | undefined): ProjectFilters | null {
  const filters: ProjectFilters = {};
  for (const clause of where ?? []) {
    if (clause.field === 'category' && clause.op === '==') filters.category = String(clause.value);
    else if (clause.field === 'assignedUserIds' && clause.op === 'array-contains')
      filters.assignedTo = String(clause.value);
    else if (clause.field === 'dueDate' && clause.op === '>=' && filters.dueFrom === undefined)
      filters.dueFrom = String(clause.value);
    else if (clause.field === 'dueDate' && clause.op === '<' && filters.dueBefore === undefined)
      filters.dueBefore = String(clause.value);
    else if (clause.field === 'completed' && clause.op === '==' && clause.value === true)
      filters.completed = true;
    else return null;
  }
  return filters;
}

/**
 * A due-date range comes whole and bounded (the calendar's, docs/decisions/067-live-calendar.md): an
 * open-ended one would follow every project there is.
 */
function refuseUnboundedRange(filters: ProjectFilters): void {
  // Completed projects are only ever read by a calendar range: all of them at once would be unbounded.
  if (filters.dueFrom === undefined && filters.dueBefore === undefined && !filters.completed) return;
  const problem =
    filters.dueFrom === undefined || filters.dueBefore === undefined
      ? calendarMessages.rangeHalf
      : calendarRangeProblem(filters.dueFrom, filters.dueBefore);
  if (problem) throw invalidArgument({ where: problem }, messages.badRequest);
}

/** A live query on `projects` in the service's terms; a filter or order the list cannot do is a 400. */
function projectQueryOf(query: LiveQuery): ProjectQuery {
  const filters = projectFiltersOf(query.where);
  if (!filters) {
    throw invalidArgument(
      {
        where:
          'Projects can be filtered by category (==), assignedUserIds (array-contains), a dueDate range (>= and <) or, with a range, completed (== true).',
      },
      messages.badRequest,
    );
  }
  refuseUnboundedRange(filters);
  const order = query.orderBy ?? { field: 'createdAt', direction: 'desc' as const };
  if (!isOrderField(order.field)) {
    throw invalidArgument({ orderBy: `Cannot order projects by ${order.field}.` }, messages.badRequest);
  }
  // Names compare differently in JS and under a database's collation; dates and ids do not.
  if ((query.startAfter || query.endAt) && order.field === 'name') {
    throw invalidArgument({ startAfter: 'Pages of projects by name have no cursors.' }, messages.badRequest);
  }
  return {
    ...filters,
    orderBy: { column: PROJECT_ORDER_COLUMNS[order.field], direction: order.direction },
    limit: query.limit,
    startAfter: query.startAfter,
    endAt: query.endAt,
  };
}

/** Whether a query asks for the calendar's slim shape; any shape but that one is a 400. */
function isCalendarShape(query: LiveQuery): boolean {
  if (query.shape === undefined) return false;
  if (query.shape !== CALENDAR_SHAPE) {
    throw invalidArgument({ shape: calendarMessages.unknownShape }, calendarMessages.unknownShape);
  }
  return true;
}

/**
 * Live reads of projects, lists and single documents, through the service `GET /api/projects` uses. A
 * query in the calendar's shape reads the same projects under the same rule and routing (its target is its
 * group's key) and sends each in `presentCalendarProject`'s fields, so a change to a field it leaves out
 * sends nothing.
 */
export const projectsLiveSource = (projects: ProjectsService): LiveSource => ({
  authorize: (_target, viewer) => projects.authorizeRead(viewer),
  resultsBelongTo: 'everyone',
  query: async (query) => {
    const slim = isCalendarShape(query);
    const projectQuery = projectQueryOf(query);
    const found = await projects.list(projectQuery);
    if (!slim) return found;
    const completed = projectQuery.completed === true;
    return found.map((project) => presentCalendarProject(project, completed));
  },
  find: (id) => projects.find(id),
});

import {
  COMMENTS_PAGE_MAX,
  COMMENTS_PAGE_SIZE,
  messages,
  type LiveQuery,
  type LiveWhere,
} from '../../common';
import { anySignedInViewer, type LiveSource } from '../live/live-sources';
import { refuseCursors } from '../live/matches-where';
import { invalidArgument } from '../core/app-error';
import type { ProjectQuery } from './projects-repository';
import type { ProjectsService } from './projects-service';

/** Columns a live query may order projects by, by the field name the API shows. */
const PROJECT_ORDER_COLUMNS = { createdAt: 'created_at', dueDate: 'due_date', name: 'name' } as const;

const isOrderField = (field: string): field is keyof typeof PROJECT_ORDER_COLUMNS =>
  Object.hasOwn(PROJECT_ORDER_COLUMNS, field);

/** The filters a live query may use, in the service's terms; null for any other. */
function projectFiltersOf(
  where: LiveWhere[] | undefined,
): Pick<ProjectQuery, 'category' | 'assignedTo'> | null {
  const filters: Pick<ProjectQuery, 'category' | 'assignedTo'> = {};
  for (const clause of where ?? []) {
    if (clause.field === 'category' && clause.op === '==') filters.category = String(clause.value);
    else if (clause.field === 'assignedUserIds' && clause.op === 'array-contains')
      filters.assignedTo = String(clause.value);
    else return null;
  }
  return filters;
}

/** A live query on `projects` in the service's terms; a filter or order the list cannot do is a 400. */
function projectQueryOf(query: LiveQuery): ProjectQuery {
  const filters = projectFiltersOf(query.where);
  if (!filters) {
    throw invalidArgument(
      { where: 'Projects can be filtered by category (==) or assignedUserIds (array-contains).' },
      messages.badRequest,
    );
  }
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

/** Live reads of projects, lists and single documents, through the service `GET /api/projects` uses. */
export const projectsLiveSource = (projects: ProjectsService): LiveSource => ({
  // Every signed-in member may read every project (docs/product-spec.md#6-permissions).
  authorize: anySignedInViewer,
  resultsBelongTo: 'everyone',
  query: (query) => projects.list(projectQueryOf(query)),
  find: (id) => projects.find(id),
});

/**
 * The one comments query there is: one project's, newest first, at most a page; with a `before ==` clause
 * (a comment id, as the HTTP cursor), only those committed before it: an older page the client has loaded,
 * followed live so edits and deletes in it show. New comments never enter such a page.
 */
function commentsQueryOf(query: LiveQuery): { projectId: string; limit: number; before?: string } {
  refuseCursors(query, 'Comments');
  const refuse = () =>
    invalidArgument(
      { where: 'Comments are read by projectId (==), optionally before (==) a comment id.' },
      messages.badRequest,
    );
  let projectId: string | undefined;
  let before: string | undefined;
  for (const clause of query.where ?? []) {
    if (clause.op === '==' && clause.field === 'projectId' && projectId === undefined)
      projectId = String(clause.value);
    else if (clause.op === '==' && clause.field === 'before' && before === undefined)
      before = String(clause.value);
    else throw refuse();
  }
  if (projectId === undefined) throw refuse();
  if (query.orderBy && (query.orderBy.field !== 'createdAt' || query.orderBy.direction !== 'desc')) {
    throw invalidArgument(
      { orderBy: 'Comments are read newest first (createdAt desc).' },
      messages.badRequest,
    );
  }
  const limit = query.limit ?? COMMENTS_PAGE_SIZE;
  if (limit > COMMENTS_PAGE_MAX) {
    throw invalidArgument({ limit: `At most ${COMMENTS_PAGE_MAX} comments at a time.` }, messages.badRequest);
  }
  return { projectId, limit, before };
}

/**
 * Live reads of a project's newest comments. A new comment changes this query's result by that one
 * comment (and the one that leaves the page), so that is all a subscriber receives.
 */
export const commentsLiveSource = (projects: ProjectsService): LiveSource => ({
  // Every signed-in member may read every project's discussion.
  authorize: anySignedInViewer,
  resultsBelongTo: 'everyone',
  query: (query) => {
    const { projectId, limit, before } = commentsQueryOf(query);
    if (before === undefined) return projects.newestComments(projectId, limit);
    return projects.getCommentPage(projectId, { limit, before }).then((page) => page.comments);
  },
  find: (id) => projects.findComment(id),
});

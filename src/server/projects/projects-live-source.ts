import { COMMENTS_PAGE_MAX, COMMENTS_PAGE_SIZE, messages, type LiveQuery } from '../../common';
import { invalidArgument } from '../shared/app-error';
import type { LiveSource } from '../live/live-sources';
import {
  getComment,
  getProject,
  listComments,
  PROJECT_ORDER_COLUMNS,
  projectQueryFrom,
  queryProjects,
} from './projects-repository';

const isOrderField = (field: string): field is keyof typeof PROJECT_ORDER_COLUMNS =>
  Object.hasOwn(PROJECT_ORDER_COLUMNS, field);

/** Live reads of projects: lists and single documents, never with their comments. */
export const projectsLiveSource: LiveSource = {
  async query(db, query) {
    const filters = projectQueryFrom(query.where);
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
    return queryProjects(db, {
      ...filters,
      orderBy: { column: PROJECT_ORDER_COLUMNS[order.field], direction: order.direction },
      limit: query.limit,
    });
  },
  get: (db, id) => getProject(db, id),
  groupKey: (target) => JSON.stringify(target),
};

/** The one comments query there is: one project's, newest first, at most a page. */
function commentsQueryOf(query: LiveQuery): { projectId: string; limit: number } {
  const [clause, ...others] = query.where ?? [];
  if (!clause || others.length > 0 || clause.field !== 'projectId' || clause.op !== '==') {
    throw invalidArgument({ where: 'Comments are read by projectId (==).' }, messages.badRequest);
  }
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
  return { projectId: String(clause.value), limit };
}

/**
 * Live reads of a project's newest comments. A new comment changes this query's result by that one
 * comment (and the one that leaves the page), so that is all a subscriber receives.
 */
export const commentsLiveSource: LiveSource = {
  async query(db, query) {
    const { projectId, limit } = commentsQueryOf(query);
    return listComments(db, projectId, { limit });
  },
  get: (db, id) => getComment(db, id),
  groupKey: (target) => JSON.stringify(target),
};

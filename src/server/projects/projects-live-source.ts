import { messages } from '../../common';
import { invalidArgument } from '../http/app-error';
import type { LiveSource } from '../live/live-sources';
import {
  getProjectWithComments,
  PROJECT_ORDER_COLUMNS,
  projectQueryFrom,
  queryProjects,
} from './projects-repository';

const isOrderField = (field: string): field is keyof typeof PROJECT_ORDER_COLUMNS =>
  Object.hasOwn(PROJECT_ORDER_COLUMNS, field);

/** Live reads of projects: lists without comments, single documents with them. */
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
  get: (db, id) => getProjectWithComments(db, id),
  groupKey: (target) => JSON.stringify(target),
};

import { z } from 'zod';
import {
  CompletedProjectPageSchema,
  CompletedProjectSchema,
  CreateProjectSchema,
  ProjectPageSchema,
  ProjectSchema,
  UpdateProjectSchema,
} from '../../common';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { CompletedQuerySchema, IdParamsSchema, ListQuerySchema } from './projects-routes';

const tag = 'Projects';
const ProjectResultSchema = z.object({ project: ProjectSchema });

export const projectsRouteDocs = describeRoutes([
  {
    method: 'PATCH',
    path: '/api/projects/{id}',
    tag,
    summary: 'Edit a project (its creator or an admin)',
    description:
      "The create form's fields and rules, plus the `version` the edit started from: if the project changed meanwhile, nothing is written and the answer is 409.",
    caller: 'member',
    params: IdParamsSchema,
    body: jsonBody(UpdateProjectSchema),
    response: {
      status: 200,
      description: 'The project as saved',
      schema: ProjectResultSchema,
    },
    errors: ['forbidden', 'not-found', 'conflict'],
  },
  {
    method: 'GET',
    path: '/api/completed-projects',
    tag,
    summary: 'Completed projects, the latest completion first, a page at a time',
    caller: 'member',
    query: CompletedQuerySchema,
    response: {
      status: 200,
      description: 'A page of completed projects',
      schema: CompletedProjectPageSchema,
    },
  },
  {
    method: 'GET',
    path: '/api/completed-projects/{id}',
    tag,
    summary: 'One completed project, with who completed it and when (what its old links now show)',
    caller: 'member',
    params: IdParamsSchema,
    response: {
      status: 200,
      description: 'The completed project',
      schema: z.object({ project: CompletedProjectSchema }),
    },
    errors: ['not-found'],
  },
  {
    method: 'POST',
    path: '/api/completed-projects/{id}/reopen',
    tag,
    summary: 'Reopen a completed project (its creator or an admin): back on every dashboard, live',
    caller: 'member',
    params: IdParamsSchema,
    response: {
      status: 200,
      description: 'The reopened project',
      schema: ProjectResultSchema,
    },
    errors: ['forbidden', 'not-found'],
  },
  {
    method: 'DELETE',
    path: '/api/completed-projects/{id}',
    tag,
    summary: 'Delete a completed project and its comments for good (its creator or an admin)',
    caller: 'member',
    params: IdParamsSchema,
    response: { status: 204, description: 'Deleted' },
    errors: ['forbidden', 'not-found'],
  },
  {
    method: 'GET',
    path: '/api/projects',
    tag,
    summary: 'List open projects a page at a time, newest first or by due date, filtered on the server',
    description:
      'Pass `nextCursor` as `after` for the next page, down to the oldest project (keyset paging: every page costs the same). The web app reads lists through the live protocol (docs/api.md); this is the same query over HTTP. `dueFrom` and `dueBefore` (YYYY-MM-DD, together, at most 42 days apart) keep the projects due in that range, as the calendar does.',
    caller: 'member',
    query: ListQuerySchema,
    response: { status: 200, description: 'A page of projects, without comments', schema: ProjectPageSchema },
  },
  {
    method: 'POST',
    path: '/api/projects',
    tag,
    summary: 'Create a project',
    description:
      'The creator comes from the session and `createdAt` from the server clock; both are ignored in the body.',
    caller: 'member',
    body: jsonBody(CreateProjectSchema),
    response: { status: 201, description: 'The new project', schema: ProjectResultSchema },
    errors: ['forbidden', 'too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/projects/{id}',
    tag,
    summary: 'One project (its comments: GET /api/projects/{id}/comments)',
    caller: 'member',
    params: IdParamsSchema,
    response: { status: 200, description: 'The project', schema: ProjectResultSchema },
    errors: ['not-found'],
  },
  {
    method: 'DELETE',
    path: '/api/projects/{id}',
    tag,
    summary: 'Mark as Complete (creator only): off every dashboard, kept in /api/completed-projects',
    description:
      'Afterwards the project answers 404 here, as a deleted one did; it can be reopened, or deleted for good, under /api/completed-projects.',
    caller: 'member',
    params: IdParamsSchema,
    response: { status: 204, description: 'Completed' },
    errors: ['forbidden', 'not-found'],
  },
]);

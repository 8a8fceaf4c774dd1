import { z } from 'zod';
import { AddCommentSchema, CommentSchema, CreateProjectSchema, ProjectSchema } from '../../common';
import type { RouteDoc } from '../http/api-docs';
import { IdParamsSchema, ListQuerySchema } from './projects-routes';

const tag = 'Projects';

export const projectsRouteDocs: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/projects',
    tag,
    summary: 'List projects, newest first, filtered on the server',
    description:
      'The web app reads lists through the live protocol (docs/api.md); this is the same query over HTTP.',
    auth: 'session-or-token',
    query: ListQuerySchema,
    response: {
      status: 200,
      description: 'The projects, without comments',
      schema: z.object({ projects: z.array(ProjectSchema) }),
    },
    errors: ['unauthenticated', 'invalid-argument'],
  },
  {
    method: 'POST',
    path: '/api/projects',
    tag,
    summary: 'Create a project',
    description:
      'The creator comes from the session and `createdAt` from the server clock; both are ignored in the body.',
    auth: 'session-or-token',
    body: { contentType: 'application/json', schema: CreateProjectSchema },
    response: { status: 201, description: 'The new project', schema: z.object({ project: ProjectSchema }) },
    errors: ['unauthenticated', 'forbidden', 'invalid-argument'],
  },
  {
    method: 'GET',
    path: '/api/projects/{id}',
    tag,
    summary: 'One project with its comments',
    auth: 'session-or-token',
    params: IdParamsSchema,
    response: { status: 200, description: 'The project', schema: z.object({ project: ProjectSchema }) },
    errors: ['unauthenticated', 'not-found'],
  },
  {
    method: 'DELETE',
    path: '/api/projects/{id}',
    tag,
    summary: 'Mark as Complete: delete the project (creator only)',
    auth: 'session-or-token',
    params: IdParamsSchema,
    response: { status: 204, description: 'Deleted' },
    errors: ['unauthenticated', 'forbidden', 'not-found'],
  },
  {
    method: 'POST',
    path: '/api/projects/{id}/comments',
    tag,
    summary: 'Add a comment (any signed-in user)',
    auth: 'session-or-token',
    params: IdParamsSchema,
    body: { contentType: 'application/json', schema: AddCommentSchema },
    response: {
      status: 201,
      description: 'The stored comment',
      schema: z.object({ comment: CommentSchema }),
    },
    errors: ['unauthenticated', 'forbidden', 'invalid-argument', 'not-found'],
  },
];

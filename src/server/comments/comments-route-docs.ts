import { z } from 'zod';
import { AddCommentSchema, CommentPageSchema, CommentSchema, EditCommentSchema } from '../../common';
import { describeRoutes, jsonBody, type RouteDescription } from '../http/api-docs';
import { IdParamsSchema } from '../projects/projects-routes';
import { CommentPageQuerySchema, CommentParamsSchema } from './comments-routes';

const CommentResultSchema = z.object({ comment: CommentSchema });

/** Under the projects' tag: a comment is addressed through its project. */
const tag = 'Projects';

/** Adding, editing and deleting a comment: the same caller and the same refusals. */
const writesComments = (
  route: Omit<RouteDescription, 'tag' | 'caller' | 'proof' | 'errors'>,
): RouteDescription => ({
  ...route,
  tag,
  caller: 'member',
  errors: ['forbidden', 'not-found', 'too-many-requests'],
});

/** Editing and deleting address one comment through its project. */
const ownComment = { path: '/api/projects/{id}/comments/{commentId}', params: CommentParamsSchema };

export const commentsRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/projects/{id}/comments',
    tag,
    summary: "A page of the project's comments, newest first",
    description:
      "Pass the answer's `nextCursor` as `before` for the next older page; `nextCursor` is null on the " +
      'oldest page. The newest page is also a live query (`comments`, docs/api.md).',
    caller: 'member',
    params: IdParamsSchema,
    query: CommentPageQuerySchema,
    response: { status: 200, description: 'The page', schema: CommentPageSchema },
    errors: ['not-found'],
  },
  writesComments({
    method: 'POST',
    path: '/api/projects/{id}/comments',
    summary: 'Add a comment (any signed-in user)',
    params: IdParamsSchema,
    body: jsonBody(AddCommentSchema),
    response: { status: 201, description: 'The stored comment', schema: CommentResultSchema },
  }),
  writesComments({
    method: 'PATCH',
    ...ownComment,
    summary: 'Edit your own comment',
    description:
      'Same rules and messages as adding one. The comment gets `editedAt` (server clock); viewers of the ' +
      'live `comments` query receive it as one `modified` change. 403 for a comment of someone else.',
    body: jsonBody(EditCommentSchema),
    response: { status: 200, description: 'The edited comment', schema: CommentResultSchema },
  }),
  writesComments({
    method: 'DELETE',
    ...ownComment,
    summary: 'Delete your own comment',
    description:
      'Viewers of the live `comments` query receive one `removed` change (and, on a full page, the older ' +
      'comment that moves into it). 403 for a comment of someone else.',
    response: { status: 204, description: 'Deleted' },
  }),
]);

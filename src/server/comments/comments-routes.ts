import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AddCommentSchema,
  COMMENTS_PAGE_MAX,
  COMMENTS_PAGE_SIZE,
  EditCommentSchema,
  type Comment,
  type CommentPage,
} from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import { parseInput } from '../core/validate';
import { perUserRateLimit } from '../http/write-rate-limit';
import { IdParamsSchema } from '../projects/projects-routes';
import type { CommentsService } from './comments-service';

export const CommentParamsSchema = z.object({
  id: z.string().min(1).max(64),
  commentId: z.string().min(1).max(64),
});

export const CommentPageQuerySchema = z.object({
  /** The previous page's `nextCursor`: this page starts just before it. */
  before: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(COMMENTS_PAGE_MAX).default(COMMENTS_PAGE_SIZE),
});

/** Thin routes: authenticate, parse the input with the shared schemas, call the service, present. */
export function registerCommentsRoutes(
  app: FastifyInstance,
  deps: {
    comments: CommentsService;
    viewers: ViewerResolver;
    /** Comment writes (adds, edits, deletes) per user per minute. */
    writesPerMinute: number;
  },
): void {
  const { comments, viewers } = deps;
  const commentLimit = { rateLimit: perUserRateLimit(viewers, deps.writesPerMinute) };

  app.get('/api/projects/:id/comments', async (request): Promise<CommentPage> => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const query = parseInput(CommentPageQuerySchema, request.query);
    return comments.getCommentPage(viewer, id, { limit: query.limit, before: query.before });
  });

  app.post(
    '/api/projects/:id/comments',
    { config: commentLimit },
    async (request, reply): Promise<{ comment: Comment }> => {
      const viewer = await viewers.requireViewer(request);
      const { id } = parseInput(IdParamsSchema, request.params);
      const comment = await comments.addComment(viewer, id, parseInput(AddCommentSchema, request.body));
      reply.status(201);
      return { comment };
    },
  );

  // Edits and deletes count against the comment write limit: they fan out like a new comment does.
  app.patch(
    '/api/projects/:id/comments/:commentId',
    { config: commentLimit },
    async (request): Promise<{ comment: Comment }> => {
      const viewer = await viewers.requireViewer(request);
      const { id, commentId } = parseInput(CommentParamsSchema, request.params);
      const input = parseInput(EditCommentSchema, request.body);
      return { comment: await comments.editComment(viewer, id, commentId, input) };
    },
  );

  app.delete('/api/projects/:id/comments/:commentId', { config: commentLimit }, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id, commentId } = parseInput(CommentParamsSchema, request.params);
    await comments.deleteComment(viewer, id, commentId);
    return reply.status(204).send();
  });
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, type UserProfile } from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import { parseInput } from '../core/validate';
import type { UsersService } from './users-service';

/** A team of any size answers in pages: the first `limit` by name, narrowed by `search`. */
export const UsersQuerySchema = z.object({
  search: z.string().max(DISPLAY_NAME_MAX_LENGTH).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});

export function registerUsersRoutes(
  app: FastifyInstance,
  deps: { users: UsersService; viewers: ViewerResolver },
): void {
  app.get('/api/users', async (request): Promise<{ users: UserProfile[] }> => {
    const viewer = await deps.viewers.requireViewer(request);
    const query = parseInput(UsersQuerySchema, request.query);
    const search = query.search?.trim();
    const users = await deps.users.list(viewer, {
      where: search ? [{ field: 'displayName', containsText: search }] : [],
      orderBy: { field: 'displayName', direction: 'asc' },
      limit: query.limit,
    });
    return { users };
  });
}

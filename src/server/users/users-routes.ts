import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { DISPLAY_NAME_MAX_LENGTH, type UserProfile } from '../../common';
import type { ViewerResolver } from '../auth/viewer';
import type { Database } from '../db/schema';
import { parseInput } from '../shared/validate';
import { nameContains, selectUserProfiles, toUserProfile } from './users-repository';

/** A team of any size answers in pages: the first `limit` by name, narrowed by `search`. */
export const UsersQuerySchema = z.object({
  search: z.string().max(DISPLAY_NAME_MAX_LENGTH).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});

export function registerUsersRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; viewers: ViewerResolver },
): void {
  app.get('/api/users', async (request): Promise<{ users: UserProfile[] }> => {
    await deps.viewers.requireViewer(request);
    const query = parseInput(UsersQuerySchema, request.query);
    let select = selectUserProfiles(deps.db);
    if (query.search?.trim()) select = select.where(nameContains(query.search.trim()));
    const rows = await select.orderBy('display_name').orderBy('id').limit(query.limit).execute();
    return { users: rows.map(toUserProfile) };
  });
}

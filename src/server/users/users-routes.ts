import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { UserProfile } from '../../common';
import type { ViewerResolver } from '../auth/viewer';
import type { Database } from '../db/schema';
import { toUserProfile } from './users-repository';

export function registerUsersRoutes(
  app: FastifyInstance,
  deps: { db: Kysely<Database>; viewers: ViewerResolver },
): void {
  app.get('/api/users', async (request): Promise<{ users: UserProfile[] }> => {
    await deps.viewers.requireViewer(request);
    const rows = await deps.db
      .selectFrom('users')
      .select(['id', 'display_name', 'photo_url', 'online'])
      .orderBy('display_name')
      .orderBy('id')
      .execute();
    return { users: rows.map(toUserProfile) };
  });
}

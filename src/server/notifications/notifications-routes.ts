import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  NOTIFICATIONS_PAGE_MAX,
  NOTIFICATIONS_PAGE_SIZE,
  UpdateNotificationPreferencesSchema,
  type NotificationPage,
  type NotificationPreferences,
} from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import { parseInput } from '../core/validate';
import type { NotificationsService } from './notifications-service';

export const NotificationPageQuerySchema = z.object({
  cursor: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_PAGE_MAX).default(NOTIFICATIONS_PAGE_SIZE),
});

export const NotificationIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The signed-in member's own notifications; nobody reads or marks another's. */
export function registerNotificationsRoutes(
  app: FastifyInstance,
  deps: { notifications: NotificationsService; viewers: ViewerResolver },
): void {
  const { notifications, viewers } = deps;
  app.get('/api/notifications', async (request): Promise<NotificationPage> => {
    const viewer = await viewers.requireViewer(request);
    return notifications.page(viewer, parseInput(NotificationPageQuerySchema, request.query));
  });
  app.post('/api/notifications/:id/read', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(NotificationIdParamsSchema, request.params);
    await notifications.markRead(viewer, id);
    return reply.status(204).send();
  });
  app.post('/api/notifications/read-all', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    await notifications.markAllRead(viewer);
    return reply.status(204).send();
  });
  app.get('/api/notifications/preferences', async (request): Promise<NotificationPreferences> => {
    const viewer = await viewers.requireViewer(request);
    return notifications.preferences(viewer);
  });
  app.put('/api/notifications/preferences', async (request): Promise<NotificationPreferences> => {
    const viewer = await viewers.requireViewer(request);
    return notifications.updatePreferences(
      viewer,
      parseInput(UpdateNotificationPreferencesSchema, request.body),
    );
  });
}

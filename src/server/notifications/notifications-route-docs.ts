import {
  NotificationPageSchema,
  NotificationPreferencesSchema,
  UpdateNotificationPreferencesSchema,
} from '../../common';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { NotificationIdParamsSchema, NotificationPageQuerySchema } from './notifications-routes';

const tag = 'Notifications';

export const notificationsRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/notifications',
    tag,
    summary: "A page of the signed-in member's notifications, newest first",
    description:
      "Pass the answer's `nextCursor` as `cursor` for the next older page. The first page and the unread " +
      'count are also live queries (`notifications`, docs/api.md).',
    caller: 'member',
    query: NotificationPageQuerySchema,
    response: { status: 200, description: 'The page', schema: NotificationPageSchema },
  },
  {
    method: 'POST',
    path: '/api/notifications/{id}/read',
    tag,
    summary: 'Mark one of your notifications read',
    description: "Another member's notification answers 404, as one that does not exist.",
    caller: 'member',
    params: NotificationIdParamsSchema,
    response: { status: 204, description: 'Read' },
    errors: ['not-found'],
  },
  {
    method: 'POST',
    path: '/api/notifications/read-all',
    tag,
    summary: 'Mark all your notifications read',
    caller: 'member',
    response: { status: 204, description: 'All read' },
  },
  {
    method: 'GET',
    path: '/api/notifications/preferences',
    tag,
    summary: 'Your choice per kind: in the app, and by email (when the server can send email)',
    caller: 'member',
    response: { status: 200, description: 'One preference per kind', schema: NotificationPreferencesSchema },
  },
  {
    method: 'PUT',
    path: '/api/notifications/preferences',
    tag,
    summary: 'Change your choice for the kinds given; applies to the next notification',
    caller: 'member',
    body: jsonBody(UpdateNotificationPreferencesSchema),
    response: { status: 200, description: 'One preference per kind', schema: NotificationPreferencesSchema },
  },
]);

import { z } from 'zod/mini';
import { describeRoutes } from '../http/api-docs';

const UnsubscribeQuerySchema = z.object({ token: z.string() });
const html = { contentType: 'text/html', schema: z.string() };

export const notificationEmailRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/notifications/unsubscribe',
    tag: 'Notifications',
    summary:
      'The unsubscribe link of a notification email: a page with a button that confirms (changes nothing)',
    caller: 'anyone',
    query: UnsubscribeQuerySchema,
    response: { status: 200, description: 'A small HTML page', ...html },
  },
  {
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    tag: 'Notifications',
    summary:
      "One-click unsubscribe (RFC 8058): turns the token's kind of notification email off for its user",
    description:
      'No sign-in: the token, from the List-Unsubscribe header or the link in the email, is signed by the server and names the user and the kind. The body (List-Unsubscribe=One-Click) is ignored. 400 for a token that is not valid.',
    caller: 'anyone',
    query: UnsubscribeQuerySchema,
    response: { status: 200, description: 'A small HTML page saying it is done', ...html },
    errors: ['not-found'],
  },
]);

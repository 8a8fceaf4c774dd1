import type { FastifyInstance } from 'fastify';
import { messages } from '../../common';
import { AppError } from '../core/app-error';
import { unsubscribePage } from './email-messages';
import type { NotificationEmailOutbox } from './email-outbox';

const PATH = '/api/notifications/unsubscribe';

function tokenOf(query: unknown): string {
  const token = (query as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string' || token === '') {
    throw new AppError('invalid-argument', messages.unsubscribeLinkInvalid);
  }
  return token;
}

/**
 * One-click unsubscribe from notification email (RFC 8058), without signing in: the signed token is the
 * authority. GET only shows a button (mail scanners follow links); POST turns the kind's email off.
 */
export function registerNotificationEmailRoutes(
  server: FastifyInstance,
  deps: { notificationEmail: NotificationEmailOutbox | undefined },
): void {
  void server.register(async (scope) => {
    // RFC 8058 clients post `List-Unsubscribe=One-Click` form-encoded; the token is in the query.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    scope.get(PATH, async (request, reply) => {
      const token = tokenOf(request.query);
      return reply
        .type('text/html; charset=utf-8')
        .send(
          unsubscribePage(
            'Stop receiving this kind of notification by email?',
            `${PATH}?token=${encodeURIComponent(token)}`,
          ),
        );
    });
    const unsubscribeExempt =
      'authorized by its signed link, not a session; mail providers post it from shared addresses; it only turns email off';
    scope.post(PATH, { config: { writeLimitExempt: unsubscribeExempt } }, async (request, reply) => {
      const token = tokenOf(request.query);
      if (!deps.notificationEmail) throw new AppError('not-found', messages.emailNotConfigured);
      await deps.notificationEmail.unsubscribe(token);
      return reply
        .type('text/html; charset=utf-8')
        .send(unsubscribePage('Done: you will no longer receive this kind of notification by email.'));
    });
  });
}

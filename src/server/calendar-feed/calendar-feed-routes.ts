import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  calendarFeedMessages,
  CalendarFeedParamsSchema,
  feedSecretOf,
  PutCalendarFeedSchema,
  type CalendarFeedState,
} from '../../common/calendar-feed';
import { messages } from '../../common';
import { AppError, notFound } from '../core/app-error';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { CalendarFeedService } from './calendar-feed-service';

/** Requests one feed address may make a minute: calendar clients poll every few minutes at most. */
export const FEED_REQUESTS_PER_MINUTE = 30;

/**
 * The member's calendar feed in settings (browser sessions only: the API-token guard refuses every
 * /api/account route but the profile, and the service checks again), and the feed itself, whose address
 * is its only credential (docs/decisions/068-private-calendar-feed.md).
 */
export function registerCalendarFeedRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; calendarFeed: CalendarFeedService; publicUrl: string | undefined },
): void {
  const { viewers, calendarFeed, publicUrl } = deps;
  // The address is made for the site the member sees, unless PUBLIC_URL names it (behind a proxy).
  const originOf = (request: FastifyRequest): string => publicUrl ?? `${request.protocol}://${request.host}`;
  const secretAnswer = <T>(reply: { header(name: string, value: string): unknown }, state: T): T => {
    // An answer that may hold the feed's address: no cache along the way may keep it.
    reply.header('cache-control', 'no-store');
    return state;
  };

  app.get('/api/account/calendar-feed', async (request): Promise<CalendarFeedState> => {
    const viewer = await viewers.requireViewer(request);
    return calendarFeed.state(viewer);
  });

  app.put('/api/account/calendar-feed', async (request, reply): Promise<CalendarFeedState> => {
    const viewer = await viewers.requireViewer(request);
    const { scope } = parseInput(PutCalendarFeedSchema, request.body);
    return secretAnswer(reply, await calendarFeed.choose(viewer, scope, originOf(request)));
  });

  app.post('/api/account/calendar-feed/reset', async (request, reply): Promise<CalendarFeedState> => {
    const viewer = await viewers.requireViewer(request);
    return secretAnswer(reply, await calendarFeed.reset(viewer, originOf(request)));
  });

  app.delete('/api/account/calendar-feed', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    await calendarFeed.turnOff(viewer);
    return reply.status(204).send();
  });

  app.get(
    '/api/calendar/:file',
    {
      config: {
        rateLimit: {
          max: FEED_REQUESTS_PER_MINUTE,
          timeWindow: '1 minute',
          // Per address of a feed, never the secret itself (the PostgreSQL store writes keys to a table);
          // not per client address: Google fetches everyone's feeds from a few addresses.
          keyGenerator: (request: FastifyRequest) =>
            `calendar-feed:${createHash('sha256')
              .update(String((request.params as { file?: unknown }).file))
              .digest('base64url')}`,
          errorResponseBuilder: () => new AppError('too-many-requests', messages.tooManyAttempts),
        },
      },
    },
    async (request, reply) => {
      const { file } = parseInput(CalendarFeedParamsSchema, request.params);
      const secret = feedSecretOf(file);
      if (!secret) throw notFound(calendarFeedMessages.notFound);
      const feed = await calendarFeed.document(secret, originOf(request));
      // Each client's own copy, checked with us before every use; never kept by a shared cache.
      reply.header('cache-control', 'private, no-cache');
      reply.header('etag', feed.etag);
      if (feed.lastModified) reply.header('last-modified', feed.lastModified.toUTCString());
      if (notModified(request, feed.etag, feed.lastModified)) return reply.status(304).send();
      reply.header('content-type', 'text/calendar; charset=utf-8');
      reply.header('content-disposition', 'inline; filename="dojo.ics"');
      return reply.send(feed.body);
    },
  );
}

/**
 * RFC 9110 section 13.1: If-None-Match decides when sent (any listed tag, weak or strong, or `*`); otherwise
 * If-Modified-Since, when the feed has a date and nothing changed after it.
 */
function notModified(request: FastifyRequest, etag: string, lastModified: Date | undefined): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim().replace(/^W\//, ''))
      .some((tag) => tag === '*' || tag === etag);
  }
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince === undefined || !lastModified) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

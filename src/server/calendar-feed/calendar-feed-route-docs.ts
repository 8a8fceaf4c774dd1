import { z } from 'zod/mini';
import {
  CalendarFeedParamsSchema,
  CalendarFeedStateSchema,
  PutCalendarFeedSchema,
} from '../../common/calendar-feed';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { refusesApiTokens } from '../http/route-doc-builders';
import { FEED_REQUESTS_PER_MINUTE } from './calendar-feed-routes';

const ADDRESS_ONCE =
  'The answer holds the address (`url`) this once: only the sha256 of its secret is stored. Not cached (`Cache-Control: no-store`).';

export const calendarFeedRouteDocs = describeRoutes([
  refusesApiTokens({
    method: 'GET',
    path: '/api/account/calendar-feed',
    tag: 'Calendar feed',
    summary: "Whether the member's private calendar feed is on, which projects it holds and since when",
    description: `Never the address (\`url\` is null).`,
    response: { status: 200, description: 'The feed', schema: CalendarFeedStateSchema },
  }),
  refusesApiTokens({
    method: 'PUT',
    path: '/api/account/calendar-feed',
    tag: 'Calendar feed',
    summary: 'Turns the calendar feed on, or changes which projects it holds (all, or only the member’s)',
    description: `When the feed is off, it is turned on with a new address. ${ADDRESS_ONCE} When it is on, only its scope changes and \`url\` is null.`,
    body: jsonBody(PutCalendarFeedSchema),
    response: { status: 200, description: 'The feed', schema: CalendarFeedStateSchema },
    errors: ['too-many-requests'],
  }),
  refusesApiTokens({
    method: 'POST',
    path: '/api/account/calendar-feed/reset',
    tag: 'Calendar feed',
    summary: 'Gives the calendar feed a new address; the old one stops at once, on every instance',
    description: `${ADDRESS_ONCE} 409 when the feed is off.`,
    response: { status: 200, description: 'The feed, with its new address', schema: CalendarFeedStateSchema },
    errors: ['conflict', 'too-many-requests'],
  }),
  refusesApiTokens({
    method: 'DELETE',
    path: '/api/account/calendar-feed',
    tag: 'Calendar feed',
    summary: 'Turns the calendar feed off; its address stops at once',
    response: { status: 204, description: 'Off (also when it was off)' },
    errors: ['too-many-requests'],
  }),
  {
    method: 'GET',
    path: '/api/calendar/{file}',
    tag: 'Calendar feed',
    summary:
      "A member's private iCalendar feed (RFC 5545): one all-day event per open project on its due day",
    description: `\`file\` is \`<secret>.ics\`; the address is the only credential (no sign-in), made in settings. 404 for an unknown, reset or turned-off address and for a deactivated or deleted member's. Every answer has a strong \`ETag\` (of the body) and, but within a second of a change, \`Last-Modified\`; \`If-None-Match\` (or, without it, \`If-Modified-Since\`) answers 304 with no body. ${FEED_REQUESTS_PER_MINUTE} requests a minute per address.`,
    caller: 'anyone',
    params: CalendarFeedParamsSchema,
    response: {
      status: 200,
      description: 'The calendar (or 304 Not Modified)',
      contentType: 'text/calendar; charset=utf-8',
      schema: z.string(),
    },
    errors: ['not-found', 'too-many-requests'],
  },
]);

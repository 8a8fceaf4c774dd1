import { z } from 'zod/mini';

/**
 * The private calendar feed (docs/decisions/068-private-calendar-feed.md): the settings routes' shapes and
 * messages, and the feed's address. Imported by path (never through index.ts), so only the settings
 * screen's chunk and the server carry it.
 */

/** 'all': every open project; 'mine': only those the member is assigned to. */
const CALENDAR_FEED_SCOPES = ['all', 'mine'] as const;
export type CalendarFeedScope = (typeof CALENDAR_FEED_SCOPES)[number];

/** Where feeds are served: `<origin>/api/calendar/<secret>.ics`. */
const CALENDAR_FEED_PATH = '/api/calendar';
const CALENDAR_FEED_EXTENSION = '.ics';
/** The secret's form: 32 random bytes in base64url. */
const CALENDAR_FEED_SECRET = /^[\w-]{43}$/;

export const calendarFeedMessages = {
  scopeInvalid: 'Choose which projects the feed holds: all, or only yours.',
  notFound: 'This calendar feed does not exist, was reset or was turned off.',
  notOn: 'Your calendar feed is off. Turn it on first.',
} as const;

export const PutCalendarFeedSchema = z.object({
  scope: z.enum(CALENDAR_FEED_SCOPES, { error: calendarFeedMessages.scopeInvalid }),
});

/** The feed's address in a request path: `<secret>.ics`. */
export const CalendarFeedParamsSchema = z.object({ file: z.string() });

/** The secret in a feed's file name `<secret>.ics`, or null when the name cannot be a feed's. */
export function feedSecretOf(file: string): string | null {
  if (!file.endsWith(CALENDAR_FEED_EXTENSION)) return null;
  const secret = file.slice(0, -CALENDAR_FEED_EXTENSION.length);
  return CALENDAR_FEED_SECRET.test(secret) ? secret : null;
}

/** The member's feed as settings shows it: never its secret, which only a turn-on or a reset answers. */
export const CalendarFeedStateSchema = z.object({
  enabled: z.boolean(),
  /** Null while the feed is off. */
  scope: z.nullable(z.enum(CALENDAR_FEED_SCOPES)),
  /** When the current address was made; null while the feed is off. */
  createdAt: z.nullable(z.string()),
  /**
   * The feed's address, in the answer that made it (turning on, reset) only: only its sha256 is stored, so
   * no later answer can show it again.
   */
  url: z.nullable(z.string()),
});
export type CalendarFeedState = z.infer<typeof CalendarFeedStateSchema>;

/** The feed's address on a site whose origin is `origin` (PUBLIC_URL, or the request's). */
export function calendarFeedUrl(origin: string, secret: string): string {
  return `${origin.replace(/\/+$/, '')}${CALENDAR_FEED_PATH}/${secret}${CALENDAR_FEED_EXTENSION}`;
}

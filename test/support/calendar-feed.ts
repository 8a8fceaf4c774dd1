import { CalendarFeedClient } from '../../src/sdk/calendar-feed';
import type { SignedInClient } from './clients';

/** The member's own calendar feed settings, through the SDK on their signed-in (cookie) client. */
export const calendarFeedOf = (member: SignedInClient): CalendarFeedClient =>
  new CalendarFeedClient(member.client.transport);

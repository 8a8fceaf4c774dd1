import type { CalendarFeedScope, CalendarFeedState } from '../common/calendar-feed';
import type { Transport } from './transport';

/**
 * The signed-in member's private calendar feed (docs/api.md "Calendar feed"). Not part of
 * `createDojoCoreClient`: only the settings screen uses it, so it stays out of the first page's bundle;
 * build it on a client's transport, `new CalendarFeedClient(dojo.transport)`.
 */
export class CalendarFeedClient {
  constructor(private readonly transport: Transport) {}

  /** Whether the feed is on and which projects it holds; never its address. */
  state(): Promise<CalendarFeedState> {
    return this.transport.request<CalendarFeedState>('GET', '/api/account/calendar-feed');
  }

  /** Turns the feed on (the answer holds its address, this once) or changes its scope (no address). */
  choose(scope: CalendarFeedScope): Promise<CalendarFeedState> {
    return this.transport.request<CalendarFeedState>('PUT', '/api/account/calendar-feed', { scope });
  }

  /** A new address, in the answer; the old one stops at once. */
  reset(): Promise<CalendarFeedState> {
    return this.transport.request<CalendarFeedState>('POST', '/api/account/calendar-feed/reset');
  }

  /** Turns the feed off: its address stops at once. */
  async turnOff(): Promise<void> {
    await this.transport.request<void>('DELETE', '/api/account/calendar-feed');
  }
}

import { describe, expect, it } from 'vitest';
import { calendarFeedOf } from '../../../test/support/calendar-feed';
import { useTwoInstanceTeam } from '../../../test/support/test-team';

/**
 * A calendar feed on two instances of one PostgreSQL database: reset or turned off through one, its old
 * address stops at once on the other, which had just served it (no instance keeps a feed in memory).
 */
describe('the calendar feed on two instances', () => {
  const team = useTwoInstanceTeam({ ada: ['Ada', 'first'], bob: ['Bob', 'second'] });

  /** The same feed address on the other instance. */
  const onSecond = (url: string) => `${team.instances.second.url}${new URL(url).pathname}`;
  const statusOf = async (url: string) => (await fetch(url)).status;

  it('stops the old address on the other instance as the reset commits', async () => {
    const feed = calendarFeedOf(team.ada);
    const first = (await feed.choose('all')).url ?? '';
    expect(await statusOf(onSecond(first))).toBe(200);

    const reset = (await feed.reset()).url ?? '';
    expect(await statusOf(onSecond(first))).toBe(404);
    expect(await statusOf(onSecond(reset))).toBe(200);

    await feed.turnOff();
    expect(await statusOf(onSecond(reset))).toBe(404);
  });
});

import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Project } from '../../common';
import { calendarFeedMessages } from '../../common/calendar-feed';
import { calendarFeedOf } from '../../../test/support/calendar-feed';
import { callWithToken, tokensOf } from '../../../test/support/api-tokens';
import { createProjectAs, errorOf, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { insertProjectsInBulk } from '../../../test/support/bulk-projects';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { useTestTeam } from '../../../test/support/test-team';
import { FEED_REQUESTS_PER_MINUTE } from './calendar-feed-routes';

/**
 * The private calendar feed (docs/decisions/068-private-calendar-feed.md) on the real server, on SQLite and
 * PostgreSQL: every feed is read back by ical.js, never matched as a string. The reset seen from a second
 * instance is calendar-feed.pg.int.test.ts.
 */
const logLines: string[] = [];
const team = useTestTeam(
  { ada: 'Ada', bob: 'Bob' },
  { configOverrides: { logLevel: 'info' }, logDestination: { write: (line) => void logLines.push(line) } },
);

let members = 0;
/** A member of their own for each test (display names are unique, so each gets a number). */
async function newMember(name: string): Promise<SignedInClient> {
  members += 1;
  return signUpClient(team.server.url, `${name} ${members}`);
}

const feedOf = calendarFeedOf;

/** Turns the member's feed on and answers its address (shown this once). */
async function turnOn(member: SignedInClient, scope: 'all' | 'mine' = 'all'): Promise<string> {
  const state = await feedOf(member).choose(scope);
  expect(state).toEqual({ enabled: true, scope, createdAt: expect.any(String), url: expect.any(String) });
  return state.url ?? '';
}

/** Days from today, `YYYY-MM-DD`. */
const daysAhead = (days: number): string =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  start: string;
  end: string;
  allDay: boolean;
  category: unknown;
  url: unknown;
  sequence: number;
}

/** The feed parsed by ical.js: the calendar's properties and its events by UID. */
function parseFeed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = new Map<string, ParsedEvent>();
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent);
    events.set(event.uid, {
      uid: event.uid,
      summary: event.summary,
      description: event.description,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate && event.endDate.isDate,
      category: vevent.getFirstPropertyValue('categories'),
      url: vevent.getFirstPropertyValue('url'),
      sequence: event.sequence,
    });
  }
  return {
    version: calendar.getFirstPropertyValue('version'),
    prodid: calendar.getFirstPropertyValue('prodid'),
    calscale: calendar.getFirstPropertyValue('calscale'),
    events,
  };
}

const host = () => new URL(team.server.url).host;
const uidOf = (project: Project) => `${project.id}@${host()}`;

async function fetchFeed(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const text = await response.text();
  return { response, text };
}

describe('the calendar feed', () => {
  it('is off until turned on, shows its address once, and holds every open project as an all-day event', async () => {
    const carol = await newMember('Carol');
    expect(await feedOf(carol).state()).toEqual({ enabled: false, scope: null, createdAt: null, url: null });

    const tricky = await createProjectAs(team.bob, {
      name: 'Launch, phase 2; "big" \\ day 🎉 with a name long enough to be folded over several lines',
      details: `First line\nSecond line, with a comma; and a semicolon\n${'Long text é日本 '.repeat(30)}`,
      dueDate: '2031-12-31',
      category: 'marketing',
      assignedUserIds: [team.ada.user.uid, carol.user.uid],
    });
    const url = await turnOn(carol);
    expect(url).toMatch(new RegExp(`^${team.server.url}/api/calendar/[\\w-]{43}\\.ics$`));
    // The address is in that answer only.
    expect(await feedOf(carol).state()).toEqual({
      enabled: true,
      scope: 'all',
      createdAt: expect.any(String),
      url: null,
    });

    const { response, text } = await fetchFeed(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{43}"$/);
    // CRLF line ends, no line over 75 octets.
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    for (const line of lines) {
      expect(line).not.toContain('\n');
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    }

    const feed = parseFeed(text);
    expect(feed).toMatchObject({ version: '2.0', calscale: 'GREGORIAN', prodid: expect.any(String) });
    const event = feed.events.get(uidOf(tricky));
    expect(event).toEqual({
      uid: uidOf(tricky),
      summary: tricky.name,
      description: [
        tricky.details,
        '',
        `Assigned to: Ada, ${carol.user.displayName}`,
        'Created by: Bob',
        `${team.server.url}/projects/${tricky.id}`,
      ].join('\n'),
      start: '2031-12-31',
      end: '2032-01-01',
      allDay: true,
      category: 'marketing',
      url: `${team.server.url}/projects/${tricky.id}`,
      sequence: 0,
    });
    // Every open project is there, whoever made it.
    const other = await createProjectAs(team.ada, { name: 'Not assigned to Carol', dueDate: daysAhead(3) });
    const again = parseFeed((await fetchFeed(url)).text);
    expect(again.events.has(uidOf(other))).toBe(true);
    expect(again.events.get(uidOf(tricky))).toEqual(event);
  });

  it('answers the same body and ETag until something changes, and 304 to a client that has it', async () => {
    const dan = await newMember('Dan');
    const url = await turnOn(dan);
    const project = await createProjectAs(dan, { name: 'Cached', dueDate: daysAhead(5) });
    const first = await fetchFeed(url);
    const second = await fetchFeed(url);
    expect(second.text).toBe(first.text);
    const etag = first.response.headers.get('etag') ?? '';
    expect(second.response.headers.get('etag')).toBe(etag);

    const revalidated = await fetchFeed(url, { 'if-none-match': etag });
    expect(revalidated.response.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.response.headers.get('etag')).toBe(etag);
    expect((await fetchFeed(url, { 'if-none-match': '"something else"' })).response.status).toBe(200);

    // Last-Modified is given once the second of the latest change is over.
    let lastModified = '';
    await pollUntil(
      async () => {
        lastModified = (await fetchFeed(url)).response.headers.get('last-modified') ?? '';
        return lastModified !== '';
      },
      WAIT_MS,
      () => 'no Last-Modified',
    );
    expect(Date.parse(lastModified)).toBeGreaterThanOrEqual(Date.parse(project.updatedAt) - 1000);
    expect((await fetchFeed(url, { 'if-modified-since': lastModified })).response.status).toBe(304);

    // An edit: a new body, a new ETag, the event's SEQUENCE raised; the old validators no longer hold.
    const edited = await dan.client.projects.update(project.id, {
      name: 'Cached, then edited',
      details: project.details,
      dueDate: daysAhead(6),
      category: project.category,
      assignedUserIds: project.assignedUserIds,
      version: project.version,
    });
    const changed = await fetchFeed(url, { 'if-none-match': etag });
    expect(changed.response.status).toBe(200);
    expect(changed.response.headers.get('etag')).not.toBe(etag);
    expect(parseFeed(changed.text).events.get(uidOf(edited))).toMatchObject({
      summary: 'Cached, then edited',
      start: daysAhead(6),
      sequence: 1,
    });
    expect((await fetchFeed(url, { 'if-modified-since': lastModified })).response.status).toBe(200);
  });

  it("holds only the member's own projects when they choose 'only mine', at the same address", async () => {
    const erin = await newMember('Erin');
    const hers = await createProjectAs(team.ada, { assignedUserIds: [erin.user.uid], name: 'For Erin' });
    const notHers = await createProjectAs(team.ada, { assignedUserIds: [team.bob.user.uid] });
    const url = await turnOn(erin, 'mine');
    const mine = parseFeed((await fetchFeed(url)).text).events;
    expect([...mine.keys()]).toEqual([uidOf(hers)]);

    expect(await feedOf(erin).choose('all')).toEqual({
      enabled: true,
      scope: 'all',
      createdAt: expect.any(String),
      url: null,
    });
    const all = parseFeed((await fetchFeed(url)).text).events;
    expect(all.has(uidOf(hers))).toBe(true);
    expect(all.has(uidOf(notHers))).toBe(true);
  });

  it('leaves out completed and deleted projects', async () => {
    const fay = await newMember('Fay');
    const url = await turnOn(fay, 'mine');
    const done = await createProjectAs(fay, { name: 'Done soon' });
    const open = await createProjectAs(fay, { name: 'Still open' });
    expect([...parseFeed((await fetchFeed(url)).text).events.keys()].sort()).toEqual(
      [uidOf(done), uidOf(open)].sort(),
    );
    await fay.client.projects.complete(done.id);
    expect([...parseFeed((await fetchFeed(url)).text).events.keys()]).toEqual([uidOf(open)]);
    await fay.client.projects.deleteForGood(done.id);
    expect([...parseFeed((await fetchFeed(url)).text).events.keys()]).toEqual([uidOf(open)]);
  });

  it('stops the old address at once on a reset, and every address when turned off', async () => {
    const gus = await newMember('Gus');
    const oldUrl = await turnOn(gus);
    expect((await fetchFeed(oldUrl)).response.status).toBe(200);

    const reset = await feedOf(gus).reset();
    expect(reset).toEqual({
      enabled: true,
      scope: 'all',
      createdAt: expect.any(String),
      url: expect.any(String),
    });
    expect(reset.url).not.toBe(oldUrl);
    const gone = await fetchFeed(oldUrl);
    expect(gone.response.status).toBe(404);
    expect(JSON.parse(gone.text)).toMatchObject({
      error: { code: 'not-found', message: calendarFeedMessages.notFound },
    });
    expect((await fetchFeed(reset.url ?? '')).response.status).toBe(200);

    await feedOf(gus).turnOff();
    expect((await fetchFeed(reset.url ?? '')).response.status).toBe(404);
    expect(await feedOf(gus).state()).toMatchObject({ enabled: false });
    // A reset of a feed that is off has nothing to reset.
    const refused = await errorOf(() => feedOf(gus).reset());
    expect([refused.code, refused.message]).toEqual(['conflict', calendarFeedMessages.notOn]);
  });

  it("stops a deactivated member's feed at once, and a deleted member's", async () => {
    const hal = await newMember('Hal');
    const url = await turnOn(hal);
    expect((await fetchFeed(url)).response.status).toBe(200);
    await team.ada.client.admin.deactivate(hal.user.uid);
    expect((await fetchFeed(url)).response.status).toBe(404);

    const ivy = await newMember('Ivy');
    const ivyUrl = await turnOn(ivy);
    await ivy.client.account.deleteAccount(ivy.password);
    expect((await fetchFeed(ivyUrl)).response.status).toBe(404);
  });

  it('answers 404 to an address that is not a feed and refuses a bad scope with 400', async () => {
    const base = `${team.server.url}/api/calendar`;
    for (const file of ['x.ics', `${'a'.repeat(43)}.ics`, `${'a'.repeat(43)}.txt`, 'calendar']) {
      expect((await fetchFeed(`${base}/${file}`)).response.status).toBe(404);
    }
    const jo = await newMember('Jo');
    const refused = await errorOf(() => feedOf(jo).choose('everything' as 'all'));
    expect([refused.code, refused.message]).toEqual(['invalid-argument', calendarFeedMessages.scopeInvalid]);
    expect(await feedOf(jo).state()).toMatchObject({ enabled: false });
  });

  it('is account security: an API token may neither read nor change it', async () => {
    const kai = await newMember('Kai');
    const { secret } = await tokensOf(kai).create({ name: 'Script', scope: 'write', expiresInDays: 7 });
    for (const [method, path] of [
      ['GET', '/api/account/calendar-feed'],
      ['PUT', '/api/account/calendar-feed'],
      ['POST', '/api/account/calendar-feed/reset'],
      ['DELETE', '/api/account/calendar-feed'],
    ] as const) {
      const json = method === 'PUT' ? { scope: 'all' } : undefined;
      expect((await callWithToken(team.server.url, secret, method, path, json)).status).toBe(403);
    }
    expect(await feedOf(kai).state()).toMatchObject({ enabled: false });
  });

  it('never writes the secret to the log', async () => {
    const lu = await newMember('Lu');
    const url = await turnOn(lu);
    const reset = (await feedOf(lu).reset()).url ?? '';
    await fetchFeed(url);
    await fetchFeed(reset);
    const secrets = [url, reset].map((address) => address.split('/').at(-1)?.replace('.ics', '') ?? '');
    await pollUntil(
      () => logLines.some((line) => line.includes('/api/calendar/:file')),
      WAIT_MS,
      () => 'no request to the feed in the log',
    );
    for (const secret of secrets) {
      expect(secret).toHaveLength(43);
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
  });
  it('limits the requests one address may make a minute', async () => {
    const mo = await newMember('Mo');
    const url = await turnOn(mo, 'mine');
    const statuses: number[] = [];
    for (let request = 0; request <= FEED_REQUESTS_PER_MINUTE; request += 1) {
      statuses.push((await fetchFeed(url)).response.status);
    }
    expect(statuses.slice(0, FEED_REQUESTS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    const refused = await fetchFeed(url);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  // Last: the bulk projects are open, so they would be in the other tests' 'all' feeds.
  it('holds every project of a long list, read page by page with ties on the due day', async () => {
    const nia = await newMember('Nia');
    const count = 1_234;
    const ids = await insertProjectsInBulk(team.server, {
      count,
      creatorId: team.ada.user.uid,
      assigneeIds: [nia.user.uid],
    });
    const url = await turnOn(nia, 'mine');
    const { response, text } = await fetchFeed(url);
    expect(response.status).toBe(200);
    const events = parseFeed(text).events;
    expect(events.size).toBe(count);
    expect([...events.keys()].sort()).toEqual(ids.map((id) => `${id}@${host()}`).sort());
    // Soonest due first, as the feed promises.
    const starts = [...events.values()].map((event) => event.start);
    expect(starts).toEqual([...starts].sort());
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, type LiveTarget, type UserProfile } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { LiveRecorder, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';

let server: TestServer;
let viewer: SignedInClient;
/** A session cookie, for the HTTP API. */
let cookie: string;
// One run of this file signs up these names; a random tag keeps them apart from other files' users.
const tag = Math.random().toString(36).slice(2, 7);
const names = {
  jose: `José Núñez ${tag}`,
  joseph: `Joseph ${tag}`,
  percent: `50%_off ${tag}`,
  plain: `50 off ${tag}`,
};

const search = (text: string, limit = 50): LiveTarget => ({
  kind: 'query',
  collection: 'users',
  where: [{ field: 'displayName', op: 'contains-text', value: text }],
  orderBy: { field: 'displayName', direction: 'asc' },
  limit,
});

const namesIn = (docs: UserProfile[]) => docs.map((user) => user.displayName);

beforeAll(async () => {
  server = await startTestServer();
  viewer = await signUpClient(server.url, `viewer ${tag}`);
  await Promise.all(Object.values(names).map((name) => signUpClient(server.url, name)));
  const lister = await postSignup(server.url, { email: uniqueEmail('lister'), displayName: `lister ${tag}` });
  cookie = sessionCookieOf(lister);
});
afterAll(async () => {
  await server.stop();
});

describe('searching users by name (Assign to)', () => {
  it('matches anywhere in the name, ignoring case and accents', async () => {
    const jose = new LiveRecorder<UserProfile>(viewer.client, search(`JOSE`));
    const docs = await jose.until(() => true);
    expect(namesIn(docs)).toEqual(expect.arrayContaining([names.jose, names.joseph]));
    expect(namesIn(docs).every((name) => /jos[eé]/i.test(name))).toBe(true);

    const surname = new LiveRecorder<UserProfile>(viewer.client, search(`nunez ${tag}`));
    expect(namesIn(await surname.until(() => true))).toEqual([names.jose]);
    [jose, surname].forEach((recorder) => recorder.unsubscribe());
  });

  it('takes % and _ literally', async () => {
    const percent = new LiveRecorder<UserProfile>(viewer.client, search('50%_off'));
    expect(namesIn(await percent.until(() => true))).toEqual([names.percent]);
    percent.unsubscribe();
  });

  it('pages the result on the server', async () => {
    const everyone = new LiveRecorder<UserProfile>(viewer.client, search(tag, 2));
    const docs = await everyone.until(() => true);
    expect(docs).toHaveLength(2);
    expect(namesIn(docs)).toEqual([...namesIn(docs)].sort());
    everyone.unsubscribe();
  });

  it('adds a user who signs up later to the searches that match, and only those', async () => {
    const jose = new LiveRecorder<UserProfile>(viewer.client, search(`jose`));
    const other = new LiveRecorder<UserProfile>(viewer.client, search(`nobody-${tag}`));
    await Promise.all([jose.until(() => true), other.until(() => true)]);
    const josefina = await signUpClient(server.url, `Josefina ${tag}`);
    await jose.until((docs) => docs.some((user) => user.id === josefina.user.uid), WAIT_MS, 'Josefina found');
    expect(other.docs).toEqual([]);
    expect(other.history).toHaveLength(1);
    [jose, other].forEach((recorder) => recorder.unsubscribe());
  });

  it('refuses a text search on any other field', async () => {
    const wrong = new LiveRecorder<UserProfile>(viewer.client, {
      kind: 'query',
      collection: 'users',
      where: [{ field: 'id', op: 'contains-text', value: 'a' }],
    });
    await pollUntil(
      () => wrong.error !== undefined,
      WAIT_MS,
      () => 'no error for a text search on id',
    );
    expect(wrong.error?.message).toBe(messages.badRequest);
    expect(wrong.docs).toBeUndefined();
  });
});

describe('GET /api/users', () => {
  const get = async (query: string) => {
    const response = await fetch(`${server.url}/api/users${query}`, {
      headers: { cookie },
    });
    return {
      status: response.status,
      body: (await response.json()) as { users?: UserProfile[]; error?: { fields?: object } },
    };
  };

  it('searches like the live query and pages by name', async () => {
    const found = await get(`?search=${encodeURIComponent(`nunez ${tag}`)}`);
    expect(found.status).toBe(200);
    expect(namesIn(found.body.users ?? [])).toEqual([names.jose]);
    const page = await get(`?search=${tag}&limit=2`);
    expect(namesIn(page.body.users ?? [])).toHaveLength(2);
    expect(namesIn(page.body.users ?? [])).toEqual([...namesIn(page.body.users ?? [])].sort());
  });

  it('refuses a limit out of range or a search longer than any name with 400, naming the field', async () => {
    const tooMany = await get('?limit=5000');
    expect(tooMany.status).toBe(400);
    expect(Object.keys(tooMany.body.error?.fields ?? {})).toEqual(['limit']);
    const tooLong = await get(`?search=${'x'.repeat(61)}`);
    expect(tooLong.status).toBe(400);
    expect(Object.keys(tooLong.body.error?.fields ?? {})).toEqual(['search']);
  });
});

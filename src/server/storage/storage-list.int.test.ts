import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageErrorTexts } from '../../common/storage-errors';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import {
  bucketUrl,
  putObject,
  signUpStorageUser,
  testBytes,
  type StorageTestUser,
} from './testing/storage-http';

let server: TestServer;
let alice: StorageTestUser;
let bob: StorageTestUser;
let root: string;

interface ListBody {
  prefixes?: string[];
  items?: { name: string; bucket: string }[];
  nextPageToken?: string;
}

/** Files under files/{alice}/: loose files, two folders and a folder of 25 files. */
const LEAVES = [
  'a.txt',
  'b/1.txt',
  'b/2.txt',
  'c/x/y.txt',
  'd.txt',
  'e e.txt',
  'z/last.txt',
  ...Array.from({ length: 25 }, (_, index) => `many/${String(index).padStart(2, '0')}.txt`),
];

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUpStorageUser(server.url), signUpStorageUser(server.url)]);
  root = `files/${alice.uid}/list/`;
  for (const leaf of LEAVES) await putObject(server.url, root + leaf, testBytes(3), { headers: alice.auth });
});
afterAll(async () => {
  await server.stop();
});

async function list(params: Record<string, string>, headers: Record<string, string> = bob.auth) {
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return fetch(`${bucketUrl(server.url)}?${query}`, { headers });
}

async function listOk(params: Record<string, string>): Promise<ListBody> {
  const response = await list(params);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ListBody;
}

/** Follows nextPageToken like listAll; returns every page. */
async function listAll(params: Record<string, string>): Promise<ListBody[]> {
  const pages: ListBody[] = [];
  let pageToken: string | undefined;
  do {
    const page = await listOk({ ...params, ...(pageToken ? { pageToken } : {}) });
    pages.push(page);
    expect(page.nextPageToken).not.toBe('');
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined && pages.length < 100);
  return pages;
}

describe('list (GET /v0/b/{bucket}/o)', () => {
  it('folds names under the delimiter into prefixes, in byte order', async () => {
    const page = await listOk({ prefix: root, delimiter: '/' });
    expect(page.prefixes).toEqual([`${root}b/`, `${root}c/`, `${root}many/`, `${root}z/`]);
    expect(page.items).toEqual(
      ['a.txt', 'd.txt', 'e e.txt'].map((leaf) => ({ name: root + leaf, bucket: 'dojo' })),
    );
    expect(page).not.toHaveProperty('nextPageToken');
  });

  it('lists everything under a prefix without a delimiter', async () => {
    const page = await listOk({ prefix: root });
    expect(page.prefixes).toEqual([]);
    expect(page.items?.map((item) => item.name)).toEqual(LEAVES.map((leaf) => root + leaf).sort());
  });

  it('lists the root as the SDK does (?prefix=&delimiter=/)', async () => {
    const page = await listOk({ prefix: '', delimiter: '/' });
    expect(page.prefixes).toEqual(expect.arrayContaining(['files/', 'thumbnails/']));
    expect(new Set(page.prefixes).size).toBe(page.prefixes?.length);
  });

  it('pages with maxResults, counting items and prefixes together, with no duplicates', async () => {
    const everything = await listOk({ prefix: root, delimiter: '/' });
    const expected = [
      ...(everything.prefixes ?? []),
      ...(everything.items ?? []).map((item) => item.name),
    ].sort();
    for (const maxResults of [1, 2, 3, 7]) {
      const pages = await listAll({ prefix: root, delimiter: '/', maxResults: String(maxResults) });
      const entries = pages.flatMap((page) => [
        ...(page.prefixes ?? []),
        ...(page.items ?? []).map((i) => i.name),
      ]);
      for (const page of pages) {
        expect((page.prefixes?.length ?? 0) + (page.items?.length ?? 0)).toBeLessThanOrEqual(maxResults);
      }
      expect(pages.at(-1)).not.toHaveProperty('nextPageToken');
      expect(entries.sort()).toEqual(expected);
      expect(new Set(entries).size).toBe(entries.length);
    }
  });

  it('pages through a long folder without a delimiter', async () => {
    const pages = await listAll({ prefix: `${root}many/`, maxResults: '4' });
    expect(pages).toHaveLength(7);
    const names = pages.flatMap((page) => (page.items ?? []).map((item) => item.name));
    expect(names).toEqual(LEAVES.filter((leaf) => leaf.startsWith('many/')).map((leaf) => root + leaf));
  });

  it('gives an opaque token that only resumes the listing it came from', async () => {
    const first = await listOk({ prefix: root, delimiter: '/', maxResults: '2' });
    const token = first.nextPageToken!;
    expect(token).toBeTruthy();
    expect(token).not.toContain(root);
    expect(LEAVES.map((leaf) => root + leaf)).not.toContain(token);
    expect((await list({ prefix: root, delimiter: '/', pageToken: 'garbage!' })).status).toBe(400);
    expect((await list({ prefix: `files/${bob.uid}/`, delimiter: '/', pageToken: token })).status).toBe(400);
  });

  it.each([['0'], ['1001'], ['-1'], ['abc'], ['1.5'], ['']])(
    'refuses maxResults=%j (400)',
    async (maxResults) => {
      const response = await list({ prefix: root, delimiter: '/', maxResults });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(400);
      expect(body.error.message).toMatch(/maxResults/);
    },
  );

  it('accepts maxResults=1000 and defaults to it', async () => {
    expect((await list({ prefix: root, maxResults: '1000' })).status).toBe(200);
    expect((await listOk({ prefix: root })).items).toHaveLength(LEAVES.length);
  });

  it('needs a signed-in user (401)', async () => {
    const response = await list({ prefix: root, delimiter: '/' }, {});
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      storageErrorTexts.unauthenticated,
    );
  });

  it('works with the cookie as well as the token', async () => {
    const response = await list({ prefix: root, delimiter: '/' }, { cookie: alice.cookie });
    expect(response.status).toBe(200);
  });
});

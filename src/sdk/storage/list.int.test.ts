import pMap from 'p-map';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertObjectsInBulk } from '../../../test/support/bulk-objects';
import { signUpClient, type SignedInClient } from '../../../test/support/clients';
import { startTestServer, testDatabaseEngine, type TestServer } from '../../../test/support/test-server';
import { list, listAll, uploadBytes, type ListResult } from './operations';
import { ref, type StorageReference } from './reference';

/**
 * list and listAll over 2,500 objects, against the real server. `set/` holds 2,100 objects of its own
 * and 100 sub-folders of 4 objects: with the delimiter the server folds those 400 names into 100
 * prefixes (2,200 entries, so 3 pages of at most 1000), which pages must neither repeat nor lose; each
 * sub-folder listed on its own has nothing to fold and returns plain items.
 */
const COUNT = 2500;
const POOL = 20;
const DIRECT = 2100;
const FOLDERS = 100;
const PER_FOLDER = 4;

let server: TestServer;
let owner: SignedInClient;
let set: StorageReference;
const allNames: string[] = [];
const directNames: string[] = [];
const folderPaths: string[] = [];

const pad = (n: number) => String(n).padStart(4, '0');

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUpClient(server.url, 'lister');
  owner.client.close();
  set = ref(owner.client.storage, `files/${owner.user.uid}/set`);
  // Folder names interleave with the objects' (byte order: 'a-…' < 'f-…' < 'z-…'), so prefixes fall
  // inside pages and on page boundaries, not all at the end.
  for (let i = 0; i < DIRECT; i += 1)
    directNames.push(`${set.fullPath}/${i % 2 === 0 ? 'a' : 'z'}-${pad(i)}`);
  directNames.sort();
  for (let i = 0; i < FOLDERS; i += 1) {
    const folder = `${set.fullPath}/f-${pad(i)}`;
    folderPaths.push(folder);
    for (let j = 0; j < PER_FOLDER; j += 1) allNames.push(`${folder}/o-${j}`);
  }
  allNames.push(...directNames);
  expect(allNames).toHaveLength(COUNT);
  const payload = new TextEncoder().encode('x');
  // Made in bulk, straight into the server's database and blob store, except a few through the API:
  // listing is what this file tests, and 2,500 uploads one request at a time only test the machine.
  const uploaded = allNames.filter((_, index) => index % 250 === 0);
  await insertObjectsInBulk(server, {
    bucket: server.config.storageBucket,
    ownerUid: owner.user.uid,
    names: allNames.filter((name) => !uploaded.includes(name)),
    bytes: payload,
  });
  await pMap(uploaded, (name) => uploadBytes(ref(owner.client.storage, name), payload), {
    concurrency: POOL,
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const paths = (refs: StorageReference[]) => refs.map((reference) => reference.fullPath);

async function allPages(folder: StorageReference, maxResults: number): Promise<ListResult[]> {
  const pages: ListResult[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list(folder, { maxResults, pageToken });
    pages.push(page);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return pages;
}

/** Every object name under `folder`, following prefixes down. */
async function walk(folder: StorageReference): Promise<string[]> {
  const { items, prefixes } = await listAll(folder);
  const below = await Promise.all(prefixes.map(walk));
  return [...paths(items), ...below.flat()];
}

describe(`list over ${COUNT} objects (${testDatabaseEngine()})`, () => {
  it('listAll folds the sub-folders into prefixes, each once, and returns every object once', async () => {
    const all = await listAll(set);
    expect(paths(all.items)).toEqual(directNames);
    expect(paths(all.prefixes)).toEqual(folderPaths);
    expect(all.items.every((item) => item.bucket === 'dojo')).toBe(true);

    const everything = await walk(set);
    expect(everything).toHaveLength(COUNT);
    expect(new Set(everything)).toEqual(new Set(allNames));
  });

  it('pages of 1000: 3 pages, items and prefixes counted together, the last without a token', async () => {
    const pages = await allPages(set, 1000);
    expect(pages.map((page) => page.items.length + page.prefixes.length)).toEqual([1000, 1000, 200]);
    expect(pages.map((page) => page.nextPageToken === undefined)).toEqual([false, false, true]);
    expect(pages.flatMap((page) => paths(page.items))).toEqual(directNames);
    expect(pages.flatMap((page) => paths(page.prefixes))).toEqual(folderPaths);
  });

  it('small pages walk across folder boundaries without losing or repeating anything', async () => {
    const pages = await allPages(set, 7);
    const entries = pages.flatMap((page) => [...paths(page.items), ...paths(page.prefixes)]);
    expect(entries).toHaveLength(DIRECT + FOLDERS);
    expect(new Set(entries).size).toBe(DIRECT + FOLDERS);
    expect(pages.every((page) => page.items.length + page.prefixes.length <= 7)).toBe(true);
  });

  it('a sub-folder has nothing to fold: plain items, and pages of 3 give 2 pages', async () => {
    const folder = ref(set, 'f-0042');
    const all = await listAll(folder);
    expect(all.prefixes).toEqual([]);
    expect(paths(all.items)).toEqual(
      Array.from({ length: PER_FOLDER }, (_, j) => `${folder.fullPath}/o-${j}`),
    );
    const pages = await allPages(folder, 3);
    expect(pages.map((page) => page.items.length)).toEqual([3, 1]);
  });

  it('lists the bucket root', async () => {
    const root = await list(ref(owner.client.storage));
    expect(paths(root.prefixes)).toContain('files');
  });

  it('refuses maxResults outside 1..1000 before sending', async () => {
    await expect(list(set, { maxResults: 1001 })).rejects.toMatchObject({
      code: 'storage/invalid-argument',
      message:
        "Firebase Storage: Invalid value for 'options.maxResults'. Expected 1000 or less. (storage/invalid-argument)",
    });
    await expect(list(set, { maxResults: 0 })).rejects.toMatchObject({
      message:
        "Firebase Storage: Invalid value for 'options.maxResults'. Expected 1 or greater. (storage/invalid-argument)",
    });
  });
});

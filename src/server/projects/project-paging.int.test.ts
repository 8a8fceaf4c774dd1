import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQuery, type LiveQuery, type Project, type ProjectPage } from '../../common';
import { insertProjectsInBulk } from '../../../test/support/bulk-projects';
import {
  createProjectAs,
  LiveRecorder,
  type SignedInClient,
  signUpClient,
} from '../../../test/support/clients';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { WAIT_MS } from '../../../test/support/poll';

const BULK = 100_000;
let server: TestServer;
let alice: SignedInClient;
let bob: SignedInClient;
let bulkIds: string[];

async function page(client: SignedInClient, query: string): Promise<ProjectPage> {
  const response = await fetch(`${server.url}/api/projects?${query}`, {
    headers: { cookie: client.client.transport.cookieHeader() ?? '' },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ProjectPage;
}

const newest = (limit: number, bounds: Pick<LiveQuery, 'startAfter' | 'endAt'> = {}): LiveQuery => ({
  ...dashboardQuery('all', '', limit),
  ...bounds,
});

const keyOf = (project: Project): [string, string] => [project.createdAt, project.id];

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUpClient(server.url, 'Alice');
  bob = await signUpClient(server.url, 'Bob');
  // 100,000 projects in bulk, three to a millisecond: ties in createdAt are broken by id.
  bulkIds = await insertProjectsInBulk(server, {
    count: BULK,
    creatorId: alice.user.uid,
    assigneeIds: [bob.user.uid],
  });
}, 180_000);
afterAll(async () => {
  alice?.client.close();
  bob?.client.close();
  await server.stop();
});

describe('every project is reachable', () => {
  it('pages through all 100,000 over HTTP, newest first, each exactly once, to the oldest', async () => {
    const seen: Project[] = [];
    let after: string | null = null;
    do {
      const next: ProjectPage = await page(
        alice,
        `limit=1000${after ? `&after=${encodeURIComponent(after)}` : ''}`,
      );
      seen.push(...next.projects);
      after = next.nextCursor;
    } while (after);
    expect(seen).toHaveLength(BULK);
    expect(new Set(seen.map((project) => project.id)).size).toBe(BULK);
    expect(seen.at(-1)?.id).toBe(bulkIds[0]);
    for (let index = 1; index < seen.length; index += 1) {
      const [previous, current] = [seen[index - 1] as Project, seen[index] as Project];
      const ordered =
        previous.createdAt > current.createdAt ||
        (previous.createdAt === current.createdAt && previous.id > current.id);
      if (!ordered) expect.fail(`out of order at ${index}: ${previous.id} then ${current.id}`);
    }
  }, 120_000);

  it('pages each filter and the due-date order by cursor too', async () => {
    const design = await page(alice, 'category=design&limit=3');
    expect(design.projects.every((project) => project.category === 'design')).toBe(true);
    const designNext = await page(
      alice,
      `category=design&limit=3&after=${encodeURIComponent(design.nextCursor ?? '')}`,
    );
    expect(designNext.projects.every((project) => project.category === 'design')).toBe(true);
    expect((designNext.projects[0]?.createdAt ?? '') <= (design.projects[2]?.createdAt ?? '')).toBe(true);

    const mine = await page(bob, `assignedTo=${bob.user.uid}&limit=5`);
    expect(mine.projects).toHaveLength(5);
    expect(mine.nextCursor).not.toBeNull();

    const due = await page(alice, 'sort=dueDate&limit=50');
    const dueNext = await page(
      alice,
      `sort=dueDate&limit=50&after=${encodeURIComponent(due.nextCursor ?? '')}`,
    );
    const dates = [...due.projects, ...dueNext.projects].map((project) => project.dueDate);
    expect(dates).toEqual([...dates].sort());
    expect(new Set([...due.projects, ...dueNext.projects].map((project) => project.id)).size).toBe(100);
  });

  it('refuses a cursor it did not make, and a page larger than the protocol allows, with a message', async () => {
    const bad = await fetch(`${server.url}/api/projects?after=nonsense`, {
      headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
    });
    expect(bad.status).toBe(400);
    const big = await fetch(`${server.url}/api/projects?limit=1001`, {
      headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
    });
    expect(big.status).toBe(400);
  });

  it('serves a live page deep in the list by its keyset bounds', async () => {
    // The page that holds projects 149 … 100, counted from the oldest: after 150, down to 100.
    const after = await alice.client.projects.get(bulkIds[150] ?? '');
    const upTo = await alice.client.projects.get(bulkIds[100] ?? '');
    const range = new LiveRecorder<Project>(
      alice.client,
      newest(1000, { startAfter: keyOf(after), endAt: keyOf(upTo) }),
    );
    const docs = await range.until((result) => result.length > 0);
    expect(docs.map((project) => project.id)).toEqual(bulkIds.slice(100, 150).reverse());
    range.unsubscribe();
  });
});

describe('live pages stay correct while projects come and go', () => {
  it('puts a new project in the first page, a completed one out of its page, and never loses the edges', async () => {
    const top = await page(alice, 'limit=50');
    const firstPageEnd = top.projects.at(-1) as Project;
    const secondEnd = (
      await page(alice, `limit=50&after=${encodeURIComponent(top.nextCursor ?? '')}`)
    ).projects.at(-1) as Project;
    // The first page as the dashboard holds it after 'Show more': everything down to its last project.
    const firstPage = new LiveRecorder<Project>(alice.client, newest(1000, { endAt: keyOf(firstPageEnd) }));
    const secondPage = new LiveRecorder<Project>(
      alice.client,
      newest(1000, { startAfter: keyOf(firstPageEnd), endAt: keyOf(secondEnd) }),
    );
    await firstPage.until((docs) => docs.length === 50);
    await secondPage.until((docs) => docs.length === 50);

    const added = await createProjectAs(alice, {
      name: 'Added above',
      details: 'x',
      assignedUserIds: [bob.user.uid],
    });
    await firstPage.until((docs) => docs.length === 51 && docs[0]?.id === added.id, WAIT_MS, 'new on top');
    // The second page did not change: its bounds did not move.
    expect(secondPage.docs?.length).toBe(50);

    const inside = secondPage.docs?.[10] as Project;
    // Bulk projects belong to Alice: completing one removes it from exactly its page.
    await alice.client.projects.complete(inside.id);
    await secondPage.until(
      (docs) => docs.length === 49 && !docs.some((doc) => doc.id === inside.id),
      WAIT_MS,
      'gone',
    );
    expect(firstPage.docs?.length).toBe(51);

    // Reopened, it comes back to the same place in the same page.
    await alice.client.projects.reopen(inside.id);
    await secondPage.until((docs) => docs[10]?.id === inside.id && docs.length === 50, WAIT_MS, 'back');
    firstPage.unsubscribe();
    secondPage.unsubscribe();
  });
});

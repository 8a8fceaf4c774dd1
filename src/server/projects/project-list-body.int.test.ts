import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dashboardQuery,
  type DashboardFilter,
  type DashboardSort,
  type Project,
  type ProjectPage,
} from '../../common';
import { LiveRecorder, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

/**
 * The list body `GET /api/projects` answers is written by the database on SQLite (one statement of JSON
 * functions) and by the presenter on PostgreSQL; live queries always use the presenter. Both must show
 * exactly the same projects, fields, order and cursors, whatever the text holds.
 */
let server: TestServer;
let alice: SignedInClient;
let bob: SignedInClient;
let carol: SignedInClient;

const inDays = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const TRICKY_TEXT = [
  'Quotes " and \\ backslashes \\" and a slash </script>',
  'Line one\nline two\ttabbed\nand a bell \u0007 and \u0001',
  'Émojis 🥋🚀, accents àéîõü, CJK 道場, separators \u2028 and \u2029 inside',
  'Plain',
];

async function listOverHttp(query: string): Promise<ProjectPage> {
  const response = await fetch(`${server.url}/api/projects?${query}`, {
    headers: { cookie: alice.client.transport.cookieHeader() ?? '' },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return (await response.json()) as ProjectPage;
}

/** The same page through a live query, which the presenter builds. */
async function listLive(filter: DashboardFilter, sort: DashboardSort, limit: number): Promise<Project[]> {
  const recorder = new LiveRecorder<Project>(alice.client, dashboardQuery(filter, bob.user.uid, limit, sort));
  try {
    return await recorder.until(() => true);
  } finally {
    recorder.unsubscribe();
  }
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUpClient(server.url, 'Alice');
  bob = await signUpClient(server.url, 'Bob');
  carol = await signUpClient(server.url, 'Carol');
  const teams = [
    [carol.user.uid, alice.user.uid, bob.user.uid],
    [bob.user.uid],
    [bob.user.uid, alice.user.uid],
    [carol.user.uid],
  ];
  const categories = ['design', 'sales', 'design', 'marketing'] as const;
  for (let index = 0; index < 12; index += 1) {
    const creator = [alice, bob, carol][index % 3] ?? alice;
    await creator.client.projects.create({
      name: `${TRICKY_TEXT[index % TRICKY_TEXT.length]?.slice(0, 40)} #${index}`,
      details: TRICKY_TEXT[(index + 1) % TRICKY_TEXT.length] ?? '',
      // Several projects share a due date, so ties are ordered by id.
      dueDate: inDays(1 + (index % 4)),
      category: categories[index % categories.length] ?? 'design',
      assignedUserIds: teams[index % teams.length] ?? [],
    });
  }
  // Names are read at list time: a rename shows in every project that names the user.
  await carol.client.account.updateProfile({ displayName: 'Carol "C" Ünicode 🥋' });
}, 60_000);

afterAll(async () => {
  for (const user of [alice, bob, carol]) user?.client.close();
  await server?.stop();
});

describe('GET /api/projects body', () => {
  it.each([
    ['all', 'newest', ''],
    ['all', 'dueDate', 'sort=dueDate'],
    ['design', 'newest', 'category=design'],
    ['mine', 'dueDate', `assignedTo=${'BOB'}&sort=dueDate`],
  ] as const)('matches the live presenter for %s by %s', async (filter, sort, query) => {
    const httpQuery = query.replace('BOB', () => bob.user.uid);
    const body = await listOverHttp(`limit=100${httpQuery ? `&${httpQuery}` : ''}`);
    const live = await listLive(filter, sort, 100);
    expect(body.projects.length).toBeGreaterThan(0);
    expect(body.projects).toEqual(live);
    expect(body.nextCursor).toBeNull();
  });

  it('keeps each project’s assignees in the order they were chosen, with current names', async () => {
    const { projects } = await listOverHttp('limit=100');
    const threeWay = projects.find((project) => project.assignedUserIds.length === 3);
    expect(threeWay?.assignedUserIds).toEqual([carol.user.uid, alice.user.uid, bob.user.uid]);
    expect(threeWay?.assignedUsersList.map((user) => user.displayName)).toEqual([
      'Carol "C" Ünicode 🥋',
      'Alice',
      'Bob',
    ]);
    expect(projects.map((project) => project.details)).toEqual(
      expect.arrayContaining([TRICKY_TEXT[0], TRICKY_TEXT[1], TRICKY_TEXT[2]]),
    );
  });

  it('pages with cursors to the same projects, each once, in the same order as one big page', async () => {
    for (const sort of ['', '&sort=dueDate']) {
      const whole = (await listOverHttp(`limit=100${sort}`)).projects;
      const paged: Project[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: ProjectPage = await listOverHttp(
          `limit=5${sort}${after ? `&after=${encodeURIComponent(after)}` : ''}`,
        );
        paged.push(...page.projects);
        after = page.nextCursor;
        pages += 1;
      } while (after);
      expect(pages).toBe(3);
      expect(paged).toEqual(whole);
    }
  });

  it('answers an empty page as an empty list without a cursor', async () => {
    const body = await listOverHttp('limit=10&category=sales&assignedTo=nobody-at-all');
    expect(body).toEqual({ projects: [], nextCursor: null });
  });
});

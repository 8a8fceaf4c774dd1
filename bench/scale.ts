import { spawnSync } from 'node:child_process';
import path from 'node:path';
import {
  dashboardQuery,
  USER_SEARCH_LIMIT,
  USERS_PAGE_SIZE,
  usersPanelQuery,
  userSearchQuery,
  type DashboardFilter,
  type LiveTarget,
} from '../src/common';
import { httpRequest, logIn, openLive, type Session } from './lib/clients';
import { DEFAULT_SEED_PASSWORD, seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, median } from './lib/stats';
import type { Benchmark, Figure } from './lib/types';

const USERS = 100;
const REPS = 9;
const WARM_UP = 5;
const FILTERS: DashboardFilter[] = ['all', 'mine', 'design'];

/** Socket open (cookie auth) → subscribe → snapshot received. */
async function firstResult(baseUrl: string, session: Session, target: LiveTarget): Promise<number> {
  const started = performance.now();
  const live = await openLive(baseUrl, session);
  try {
    const snapshot = await live.subscribe('1', target);
    if (snapshot.docs === 0) throw new Error(`empty first result for ${JSON.stringify(target)}`);
    return performance.now() - started;
  } finally {
    live.close();
  }
}

/** Projects per dashboard page. */
const PAGE = 50;

/** The keyset bound after the first `skip` projects, newest first: walked over HTTP in big pages (untimed). */
async function keyAfter(baseUrl: string, session: Session, skip: number): Promise<[string, string]> {
  let after: string | null = null;
  let last: { createdAt: string; id: string } | undefined;
  for (let seen = 0; seen < skip;) {
    const limit = Math.min(1000, skip - seen);
    const query: string = after ? `&after=${encodeURIComponent(after)}` : '';
    const response = await httpRequest(`${baseUrl}/api/projects?limit=${limit}${query}`, {
      headers: { cookie: session.cookie },
    });
    const page = JSON.parse(response.body.toString()) as {
      projects: { createdAt: string; id: string }[];
      nextCursor: string | null;
    };
    seen += page.projects.length;
    last = page.projects.at(-1);
    after = page.nextCursor;
    if (!after) break;
  }
  if (!last) throw new Error('no projects to page through');
  return [last.createdAt, last.id];
}

const firstPage = (baseUrl: string, session: Session, filter: DashboardFilter): Promise<number> =>
  firstResult(baseUrl, session, dashboardQuery(filter, session.uid, 50));

/** The users panel's first page, and an "Assign to" search for a surname (≈ 1 in 30 users has it). */
const USER_TARGETS: Record<'panel' | 'search', LiveTarget> = {
  panel: usersPanelQuery(USERS_PAGE_SIZE),
  search: userSearchQuery('garcia'),
};

/** What the admin members screen asks for: its first page, a search, and a page in the middle of the list. */
const MEMBER_PAGES = ['first', 'search', 'middle'] as const;

async function timedGet(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await httpRequest(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`GET ${url} → ${response.status}`);
  return performance.now() - started;
}

/** The cursor of the page that starts halfway down the members list (walked in pages, untimed). */
async function middleCursor(baseUrl: string, cookie: string, size: number): Promise<string> {
  const pageSize = Math.max(1, Math.min(100, Math.floor(size / 4)));
  let after: string | null = null;
  for (let seen = 0; seen < size / 2;) {
    const query: string = after ? `&after=${encodeURIComponent(after)}` : '';
    const response = await httpRequest(`${baseUrl}/api/admin/members?limit=${pageSize}${query}`, {
      headers: { cookie },
    });
    const page = JSON.parse(response.body.toString()) as { members: unknown[]; nextCursor: string | null };
    seen += page.members.length;
    after = page.nextCursor;
    if (!after) break;
  }
  if (!after) throw new Error('the members list ended before its middle');
  return after;
}

async function memberPageTimes(
  baseUrl: string,
  session: Session,
  size: number,
): Promise<Map<string, number[]>> {
  const urls: Record<(typeof MEMBER_PAGES)[number], string> = {
    first: `${baseUrl}/api/admin/members?limit=50`,
    search: `${baseUrl}/api/admin/members?limit=50&search=garcia`,
    middle: `${baseUrl}/api/admin/members?limit=50&after=${encodeURIComponent(await middleCursor(baseUrl, session.cookie, size))}`,
  };
  const times = new Map<string, number[]>();
  for (const page of MEMBER_PAGES) {
    for (let rep = 0; rep < WARM_UP; rep += 1) await timedGet(urls[page], session.cookie);
    const samples: number[] = [];
    for (let rep = 0; rep < REPS; rep += 1) samples.push(await timedGet(urls[page], session.cookie));
    times.set(`members.${page}.${size}`, samples);
  }
  return times;
}

/** The users panel (and the "Assign to" search) as the team grows: one data dir, growing user counts. */
async function usersCurve(
  context: Parameters<Benchmark['run']>[0],
  sizes: number[],
): Promise<{ times: Map<string, number[]>; cold: number[]; seedSeconds: number[] }> {
  const dataDir = path.join(context.tmpDir, 'users');
  const times = new Map<string, number[]>();
  const cold: number[] = [];
  const seedSeconds: number[] = [];
  for (const size of sizes) {
    context.log(`signing up users up to ${size.toLocaleString('en-US')}`);
    // The seeder reuses the accounts an earlier step made, so each step adds the difference.
    const result = await seed({ dataDir, users: size, projects: 0, comments: 0, seed: size });
    seedSeconds.push(result.timings.usersMs / 1000);
    spawnSync('sync');
    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    try {
      const session = await logIn(server.url, 'seed.user0@example.com', DEFAULT_SEED_PASSWORD);
      cold.push(await firstResult(server.url, session, USER_TARGETS.panel));
      for (const target of Object.values(USER_TARGETS))
        for (let rep = 0; rep < WARM_UP; rep += 1) await firstResult(server.url, session, target);
      for (const [key, target] of Object.entries(USER_TARGETS)) {
        const samples: number[] = [];
        for (let rep = 0; rep < REPS; rep += 1) samples.push(await firstResult(server.url, session, target));
        times.set(`${key}.${size}`, samples);
      }
      // seed.user0 signed up first, so it is the install's owner (an admin).
      for (const [key, samples] of await memberPageTimes(server.url, session, size)) times.set(key, samples);
      context.log(
        `${size} users: panel ${fmt(median(times.get(`panel.${size}`) ?? []))} ms, ` +
          `search ${fmt(median(times.get(`search.${size}`) ?? []))} ms, members pages ` +
          MEMBER_PAGES.map(
            (page) => `${page} ${fmt(median(times.get(`members.${page}.${size}`) ?? []))} ms`,
          ).join(', '),
      );
    } finally {
      await server.stop();
    }
  }
  return { times, cold, seedSeconds };
}

export const scale: Benchmark = {
  id: 'scale',
  title: 'Scale curve: time to the first dashboard page and the first users-panel page',
  async run(context) {
    const sizes = context.quick ? [1000, 10_000] : [1000, 10_000, 100_000];
    const deepPages = new Map<number, number>();
    const dataDir = path.join(context.tmpDir, 'data');
    const times = new Map<string, number[]>();
    const cold: number[] = [];
    const seedSeconds: number[] = [];
    let have = 0;
    for (const size of sizes) {
      context.log(`seeding up to ${size.toLocaleString('en-US')} projects`);
      const result = await seed({ dataDir, users: USERS, projects: size - have, comments: 0, seed: size });
      seedSeconds.push(result.timings.projectsMs / 1000);
      have = size;
      // Let the kernel write back what seeding dirtied, so it does not compete with the measurement.
      spawnSync('sync');
      const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
      try {
        // A seeded user: assigned to about 1 in 80 projects, as a member of a 200-person team would be.
        const session = await logIn(server.url, 'seed.user0@example.com', DEFAULT_SEED_PASSWORD);
        cold.push(await firstPage(server.url, session, 'all'));
        // Warm-up: JIT and SQLite's page cache, as on a server that has been up for a while.
        for (const filter of FILTERS)
          for (let rep = 0; rep < WARM_UP; rep += 1) await firstPage(server.url, session, filter);
        for (const filter of FILTERS) {
          const samples: number[] = [];
          for (let rep = 0; rep < REPS; rep += 1) samples.push(await firstPage(server.url, session, filter));
          times.set(`${filter}.${size}`, samples);
        }
        const http: number[] = [];
        for (let rep = 0; rep < REPS; rep += 1) {
          const started = performance.now();
          const response = await httpRequest(`${server.url}/api/projects?limit=50`, {
            headers: { cookie: session.cookie },
          });
          if (response.status !== 200) throw new Error(`list → ${response.status}`);
          http.push(performance.now() - started);
        }
        times.set(`http.${size}`, http);
        // The deepest page of 50 the dashboard can reach: its keyset bound found by walking, untimed.
        const deepPage = Math.floor((size - 1) / PAGE) + 1;
        const deepAfter = await keyAfter(server.url, session, (deepPage - 1) * PAGE);
        const deep: number[] = [];
        const deepQuery = dashboardQuery('all', session.uid, PAGE + 1, 'newest', { startAfter: deepAfter });
        for (let rep = 0; rep < WARM_UP; rep += 1) await firstResult(server.url, session, deepQuery);
        for (let rep = 0; rep < REPS; rep += 1) deep.push(await firstResult(server.url, session, deepQuery));
        times.set(`deep.${size}`, deep);
        deepPages.set(size, deepPage);
        context.log(
          `${size}: ` +
            [...FILTERS, 'http', 'deep']
              .map((key) => `${key} ${fmt(median(times.get(`${key}.${size}`) ?? []))} ms`)
              .join(', '),
        );
      } finally {
        await server.stop();
      }
    }
    const deepTop = times.get(`deep.${sizes[sizes.length - 1] ?? 0}`) ?? [];
    const userSizes = context.quick ? [100, 1000] : [100, 1000, 10_000];
    const users = await usersCurve(context, userSizes);

    const smallest = sizes[0] ?? 0;
    const largest = sizes[sizes.length - 1] ?? 0;
    const base = times.get(`all.${smallest}`) ?? [];
    const top = times.get(`all.${largest}`) ?? [];
    const ratio = top.map((value, index) => value / (base[index] ?? NaN));
    const largestDeep = deepPages.get(largest) ?? 0;
    const figures: Figure[] = [
      figure(
        'scale.deep.ratio',
        `page ${largestDeep.toLocaleString('en-US')} of ${PAGE} / page 1, live, at ${largest.toLocaleString('en-US')}`,
        '×',
        deepTop.map((value, index) => value / (top[index] ?? NaN)),
        2,
      ),
      figure(
        `scale.deep.${largest}`,
        `live page ${largestDeep.toLocaleString('en-US')} of ${PAGE} (the oldest projects) @ ${largest.toLocaleString('en-US')}`,
        'ms',
        deepTop,
      ),
      figure(
        'scale.ratio',
        `first page at ${largest.toLocaleString('en-US')} / at ${smallest.toLocaleString('en-US')}`,
        '×',
        ratio,
        2,
      ),
    ];
    const labels: Record<string, string> = {
      all: 'live first page, all projects',
      mine: 'live first page, “mine”',
      design: 'live first page, “design”',
      http: 'GET /api/projects?limit=50',
    };
    for (const key of [...FILTERS, 'http']) {
      for (const size of sizes) {
        figures.push(
          figure(
            `scale.${key}.${size}`,
            `${labels[key] ?? key} @ ${size.toLocaleString('en-US')}`,
            'ms',
            times.get(`${key}.${size}`) ?? [],
          ),
        );
      }
    }
    const fewestUsers = userSizes[0] ?? 0;
    const mostUsers = userSizes[userSizes.length - 1] ?? 0;
    const panelBase = users.times.get(`panel.${fewestUsers}`) ?? [];
    figures.push(
      figure(
        'scale.users.ratio',
        `users panel first page at ${mostUsers.toLocaleString('en-US')} users / at ${fewestUsers}`,
        '×',
        (users.times.get(`panel.${mostUsers}`) ?? []).map(
          (value, index) => value / (panelBase[index] ?? NaN),
        ),
        2,
      ),
    );
    const userLabels = { panel: 'users panel, first page', search: '“Assign to” search “garcia”' };
    for (const key of ['panel', 'search'] as const) {
      for (const size of userSizes) {
        figures.push(
          figure(
            `scale.users.${key}.${size}`,
            `${userLabels[key]} @ ${size.toLocaleString('en-US')} users`,
            'ms',
            users.times.get(`${key}.${size}`) ?? [],
          ),
        );
      }
    }
    for (const size of userSizes) {
      const pages = MEMBER_PAGES.map((page) => users.times.get(`members.${page}.${size}`) ?? []);
      figures.push(
        figure(
          `scale.members.worst.${size}`,
          `members screen, slowest of first page / search / middle page (median each) @ ${size.toLocaleString('en-US')} users`,
          'ms',
          (pages[0] ?? []).map((_, rep) => Math.max(...pages.map((samples) => samples[rep] ?? NaN))),
        ),
      );
      for (const [index, page] of MEMBER_PAGES.entries()) {
        figures.push(
          figure(
            `scale.members.${page}.${size}`,
            `GET /api/admin/members, ${page} page @ ${size.toLocaleString('en-US')} users`,
            'ms',
            pages[index] ?? [],
          ),
        );
      }
    }
    figures.push(
      ...userSizes.map((size, index) =>
        figure(
          `scale.users.cold.${size}`,
          `users panel right after server start @ ${size.toLocaleString('en-US')} users`,
          'ms',
          [users.cold[index] ?? NaN],
        ),
      ),
    );
    figures.push(
      ...sizes.map((size, index) =>
        figure(
          `scale.cold.${size}`,
          `first page right after server start @ ${size.toLocaleString('en-US')}`,
          'ms',
          [cold[index] ?? NaN],
        ),
      ),
    );
    return {
      status: 'ok',
      method: [
        `One SQLite data dir grows to ${sizes.map((size) => size.toLocaleString('en-US')).join(' → ')} projects ` +
          `(${USERS} users, 1–4 assignees each) through the seeder; at each size a fresh server process starts ` +
          'on it and a seeded user logs in.',
        'Time to first dashboard page = what the web app does on opening the dashboard: open `/live` with the ' +
          'session cookie, subscribe to the first page (50 projects, newest first) and receive the snapshot. ' +
          `Median of ${REPS} fresh sockets per filter (“all”, “mine” = assigned to me, a category) after ${WARM_UP} ` +
          'warm-up pages each; the very first page right after start is reported apart. Also the same page over HTTP.',
        'The deepest page the dashboard reaches (the oldest 50 projects): the same socket-to-snapshot time for ' +
          'the live query that starts after the keyset of the project before it (docs/decisions/021-project-paging.md), ' +
          'its bound found by walking `GET /api/projects` in pages of 1,000 (untimed); compared with page 1, run by run.',
        `Seeding the projects took ${seedSeconds.map((seconds) => `${fmt(seconds)} s`).join(', ')} ` +
          '(batched service calls, see bench/lib/batching.ts).',
        `Users panel: a second data dir grows to ${userSizes.map((size) => size.toLocaleString('en-US')).join(' → ')} ` +
          'users (signups through `AuthService.signUp`, each with its PNG thumbnail; one scrypt hash shared by ' +
          `the seeded accounts, took ${users.seedSeconds.map((seconds) => `${fmt(seconds)} s`).join(', ')}). ` +
          `At each size, the same socket-to-snapshot time for the panel’s first page (${USERS_PAGE_SIZE} users by ` +
          `name, limit ${USERS_PAGE_SIZE + 1}) and for an “Assign to” search (names containing “garcia”, accents ` +
          `ignored, limit ${USER_SEARCH_LIMIT}), ${REPS} samples each after ${WARM_UP} warm-ups.`,
        'Members screen (admins): `GET /api/admin/members?limit=50` over HTTP with the owner’s cookie — the first ' +
          'page, a search (“garcia”, in names or emails) and the page that starts halfway down the list (its ' +
          `cursor found by walking pages of 200, untimed); ${REPS} samples each after ${WARM_UP} warm-ups. The ` +
          'budget line takes, per sample, the slowest of the three.',
      ],
      figures,
    };
  },
};

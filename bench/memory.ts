import path from 'node:path';
import { closeAll, httpRequest, openDashboardTabs, signUpMany, type LiveSocket } from './lib/clients';
import { seed } from './lib/seeder';
import { IDLE_AFTER_MS, idleReading, startServer } from './lib/server-process';
import { figure, fmt, KiB, MiB } from './lib/stats';
import type { BenchContext } from './lib/types';
import type { Benchmark } from './lib/types';

const SESSIONS = 100;
const SERVED_PAGE = 1000;

/**
 * RSS of a server that has served a small team for a while: `signups` accounts made through the API, then
 * every one of `projects` projects listed once (pages of 1,000 with the cursor), then quiet.
 */
async function servedRss(context: BenchContext, run: number, signups: number, projects: number) {
  const dataDir = path.join(context.tmpDir, `served-${run}`);
  await seed({ dataDir, users: 30, projects, comments: 0 });
  const server = await startServer({
    dataDir,
    webRoot: await context.webRoot(),
    cpuProfDir: context.cpuProfDir,
  });
  try {
    const sessions = await signUpMany(server.url, signups, `served${run}`);
    const cookie = sessions[0]?.cookie ?? '';
    let listed = 0;
    let after: string | null = null;
    do {
      const query: string = after ? `&after=${encodeURIComponent(after)}` : '';
      const answer = await httpRequest(`${server.url}/api/projects?limit=${SERVED_PAGE}${query}`, {
        headers: { cookie },
      });
      if (answer.status !== 200) throw new Error(`list → ${answer.status}`);
      const page = JSON.parse(answer.body.toString()) as { projects: unknown[]; nextCursor: string | null };
      listed += page.projects.length;
      after = page.nextCursor;
    } while (after);
    if (listed < projects) throw new Error(`listed ${listed} of ${projects} projects`);
    const { rss } = await idleReading(server);
    context.log(
      `run ${run + 1}: after ${signups} signups and ${listed} projects served, RSS ${fmt(rss / MiB)} MiB`,
    );
    return rss;
  } finally {
    await server.stop();
  }
}

export const memory: Benchmark = {
  id: 'memory',
  title: 'Memory: server RSS idle and with idle live connections',
  async run(context) {
    const steps = context.quick ? [200, 500, 1000] : [1000, 5000, 10_000];
    const largest = steps[steps.length - 1] ?? 0;
    const runs: { idle: number; idleHeap: number; rss: number[]; heap: number[]; signedIn: number }[] = [];
    for (let run = 0; run < context.runs; run += 1) {
      const dataDir = path.join(context.tmpDir, `run-${run}`);
      await seed({ dataDir, users: 30, projects: 200, comments: 0 });
      const server = await startServer({
        dataDir,
        webRoot: await context.webRoot(),
        cpuProfDir: context.cpuProfDir,
      });
      const sockets: LiveSocket[] = [];
      try {
        await httpRequest(`${server.url}/api/health`);
        const idle = await idleReading(server);
        const sessions = await signUpMany(server.url, SESSIONS, `memory${run}`);
        const signedIn = await idleReading(server);
        const result = { idle: idle.rss, idleHeap: idle.heapUsed, rss: [] as number[], heap: [] as number[] };
        for (const step of steps) {
          const more = await openDashboardTabs(server.url, sessions, step - sockets.length);
          sockets.push(...more);
          const at = await idleReading(server);
          result.rss.push(at.rss);
          result.heap.push(at.heapUsed);
          context.log(
            `run ${run + 1}: ${step} sockets → RSS ${fmt(at.rss / MiB)} MiB, heap ${fmt(at.heapUsed / MiB)} MiB`,
          );
        }
        runs.push({ ...result, signedIn: signedIn.rss });
        context.log(`run ${run + 1}: idle RSS ${fmt(idle.rss / MiB)} MiB`);
      } finally {
        await closeAll(sockets);
        await server.stop();
      }
    }
    const signups = context.quick ? 100 : 1000;
    const servedProjects = context.quick ? 2000 : 10_000;
    // Once, whatever --runs says: 1,000 scrypt signups take most of a minute even on a quiet machine.
    const served = [await servedRss(context, 0, signups, servedProjects)];
    const at = (index: number) => runs.map((run) => (run.rss[index] ?? NaN) / MiB);
    const last = steps.length - 1;
    const perConnection = runs.map((run) => ((run.rss[last] ?? NaN) - run.idle) / largest / KiB);
    const first = steps[0] ?? 0;
    const marginal = runs.map(
      (run) => ((run.rss[last] ?? NaN) - (run.rss[0] ?? NaN)) / (largest - first) / KiB,
    );
    const heapPerConnection = runs.map((run) => ((run.heap[last] ?? NaN) - run.idleHeap) / largest / KiB);
    return {
      status: 'ok',
      method: [
        'Every server here is the production bundle serving the web build (`vite build`, once per bench run), ' +
          'as `npm start` runs it; before 2026-11-26 (docs/decisions/039-no-driver-at-start.md) it served no web app.',
        `A fresh server per run (30 users, 200 projects seeded); ${SESSIONS} users sign up; then sockets open in ` +
          `steps up to ${largest.toLocaleString('en-US')}, spread over the ${SESSIONS} session cookies ` +
          '(several tabs per user). Every socket is a dashboard tab: authenticated by cookie and subscribed to ' +
          'the first page of the project list (limit 50), then left idle.',
        `Each reading is of an idle server: ${IDLE_AFTER_MS / 1000} s without a request or a new socket (past ` +
          'the server’s 10 s quiet release, which the idle start counts as well), then a full GC (the server runs ' +
          'with `--expose-gc`), 0.5 s, and VmRSS from /proc. Per connection = (RSS at the largest step − RSS idle) / ' +
          'sockets; the marginal figure takes the slope between the first and last step instead.',
        `Served: a fresh server on ${servedProjects.toLocaleString('en-US')} seeded projects; ` +
          `${signups.toLocaleString('en-US')} users sign up through the API (multipart, PNG thumbnail), then ` +
          `every project is listed once (\`GET /api/projects?limit=${SERVED_PAGE}\`, following \`nextCursor\`); ` +
          'then the same idle reading (the WAL checkpoint thread also retires after 10 s without a write). One run (the signups dominate its time).',
      ],
      figures: [
        figure(
          'memory.rssIdle',
          'RSS idle (started, nobody connected)',
          'MiB',
          runs.map((run) => run.idle / MiB),
        ),
        figure(
          'memory.rssServed',
          `RSS after ${signups.toLocaleString('en-US')} signups and ${servedProjects.toLocaleString('en-US')} projects served, then quiet`,
          'MiB',
          served.map((rss) => rss / MiB),
        ),
        figure(
          'memory.rssSignedIn',
          `RSS after ${SESSIONS} signups`,
          'MiB',
          runs.map((run) => run.signedIn / MiB),
        ),
        ...steps.map((step, index) =>
          figure(
            `memory.rss${step}`,
            `RSS with ${step.toLocaleString('en-US')} connections`,
            'MiB',
            at(index),
          ),
        ),
        figure('memory.perConnection', 'per connection (vs idle)', 'KiB', perConnection),
        figure('memory.marginal', `per connection (slope ${first}→${largest})`, 'KiB', marginal),
        figure('memory.heapPerConnection', 'JS heap per connection (vs idle)', 'KiB', heapPerConnection),
      ],
    };
  },
};

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { startPostgresCluster } from '../test/support/postgres-cluster';
import { insertBulkRows } from './lib/bulk-seeder';
import { httpRequest, logIn } from './lib/clients';
import { DEFAULT_SEED_PASSWORD, seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, percentile } from './lib/stats';
import type { BenchContext, Benchmark, Figure } from './lib/types';

/**
 * Two-word queries as a user types them (the last word is matched as a prefix), over what the seeder
 * writes: words of project names, of details, and of comments — one of the 14 comment texts is on about
 * 1 in 14 comments, so 'first draft' matches some 70,000 comments at 1M.
 */
const QUERIES = [
  'checkout api',
  'first draft',
  'legal signs',
  'customer confirmed',
  'design system',
  'pricing page',
];
const WARM_UP_ROUNDS = 3;
const ROUNDS = 40;

interface EngineRun {
  samples: number[];
  perQuery: Map<string, number[]>;
  seedSeconds: { projects: number; comments: number };
}

async function measure(
  context: BenchContext,
  engine: string,
  options: { dataDir: string; databaseUrl?: string; projects: number; comments: number },
): Promise<EngineRun> {
  context.log(
    `${engine}: seeding ${options.projects.toLocaleString('en-US')} projects and ` +
      `${options.comments.toLocaleString('en-US')} comments`,
  );
  const log = (line: string) => context.log(`${engine}: ${line}`);
  const { users } = await seed({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    users: 50,
    projects: 0,
    comments: 0,
    log,
  });
  const seeded = await insertBulkRows({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    userIds: users.map((user) => user.uid),
    projects: options.projects,
    comments: options.comments,
    log,
  });
  if (options.databaseUrl) {
    // What autovacuum does after a bulk load, at once: the planner's statistics and GIN's pending list.
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query('VACUUM ANALYZE');
    await client.end();
  }
  spawnSync('sync');
  const server = await startServer({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    cpuProfDir: context.cpuProfDir,
  });
  try {
    const session = await logIn(server.url, 'seed.user0@example.com', DEFAULT_SEED_PASSWORD);
    const timed = async (q: string): Promise<number> => {
      const url = `${server.url}/api/search?q=${encodeURIComponent(q)}&limit=10`;
      const started = performance.now();
      const response = await httpRequest(url, { headers: { cookie: session.cookie } });
      const elapsed = performance.now() - started;
      if (response.status !== 200) throw new Error(`GET ${url} → ${response.status}`);
      const { results } = JSON.parse(response.body.toString()) as { results: unknown[] };
      if (results.length === 0) throw new Error(`no result for '${q}'`);
      return elapsed;
    };
    for (let round = 0; round < WARM_UP_ROUNDS; round += 1) for (const q of QUERIES) await timed(q);
    const samples: number[] = [];
    const perQuery = new Map<string, number[]>(QUERIES.map((q) => [q, []]));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const q of QUERIES) {
        const elapsed = await timed(q);
        samples.push(elapsed);
        perQuery.get(q)?.push(elapsed);
      }
    }
    context.log(
      `${engine}: p99 ${fmt(percentile(samples, 99))} ms, p50 ${fmt(percentile(samples, 50))} ms; ` +
        QUERIES.map((q) => `'${q}' p50 ${fmt(percentile(perQuery.get(q) ?? [], 50))} ms`).join(', '),
    );
    return {
      samples,
      perQuery,
      seedSeconds: { projects: seeded.projectsMs / 1000, comments: seeded.commentsMs / 1000 },
    };
  } finally {
    await server.stop();
  }
}

export const search: Benchmark = {
  id: 'search',
  title: 'Search: a two-word query at 100,000 projects and 1,000,000 comments',
  async run(context) {
    const projects = context.quick ? 10_000 : 100_000;
    const comments = context.quick ? 100_000 : 1_000_000;
    const engines: Record<'sqlite' | 'postgres', EngineRun[]> = { sqlite: [], postgres: [] };
    for (let run = 0; run < context.runs; run += 1) {
      const dataDir = path.join(context.tmpDir, `sqlite-${run}`);
      engines.sqlite.push(await measure(context, 'SQLite', { dataDir, projects, comments }));
    }
    context.log('starting a throwaway PostgreSQL cluster');
    const cluster = await startPostgresCluster({ durable: true });
    try {
      for (let run = 0; run < context.runs; run += 1) {
        const name = `dojo_search_${run}`;
        const admin = new pg.Client({ connectionString: cluster.url });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const databaseUrl = cluster.url.replace(/\/postgres$/, `/${name}`);
        const dataDir = path.join(context.tmpDir, `postgres-${run}`);
        engines.postgres.push(
          await measure(context, 'PostgreSQL', { dataDir, databaseUrl, projects, comments }),
        );
      }
    } finally {
      await cluster.stop();
    }

    const figures: Figure[] = [];
    const labels = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
    for (const engine of ['sqlite', 'postgres'] as const) {
      const runs = engines[engine];
      const label = `${labels[engine]}: GET /api/search, two words`;
      figures.push(
        figure(
          `search.${engine}.p99`,
          `${label}, p99`,
          'ms',
          runs.map((run) => percentile(run.samples, 99)),
        ),
        figure(
          `search.${engine}.p50`,
          `${label}, p50`,
          'ms',
          runs.map((run) => percentile(run.samples, 50)),
        ),
        ...QUERIES.map((q) =>
          figure(
            `search.${engine}.${q.replace(/\W+/g, '-')}`,
            `${labels[engine]}: '${q}', p50`,
            'ms',
            runs.map((run) => percentile(run.perQuery.get(q) ?? [], 50)),
          ),
        ),
        figure(
          `search.${engine}.seedComments`,
          `${labels[engine]}: seeding ${comments.toLocaleString('en-US')} comments (index kept by triggers)`,
          's',
          runs.map((run) => run.seedSeconds.comments),
          0,
        ),
      );
    }
    return {
      status: 'ok',
      method: [
        `50 users sign up through the seeder; ${projects.toLocaleString('en-US')} projects and ` +
          `${comments.toLocaleString('en-US')} comments (the seeder's texts) are then written in bulk, ` +
          '500 rows per INSERT (bench/lib/bulk-seeder.ts), and the search index by the triggers of migration ' +
          '0013_search as the rows are, as for the API. Then a fresh server process starts on the data and a ' +
          'seeded user logs in.',
        `Queries: ${QUERIES.map((q) => `'${q}'`).join(', ')} (words of names, details and comments; ` +
          `'first draft' is in about 1 comment in 14). ${WARM_UP_ROUNDS} warm-up rounds, then ${ROUNDS} rounds ` +
          'of every query, one request at a time over HTTP with the session cookie (`limit=10`); p99 and p50 ' +
          'over all of them.',
        'PostgreSQL: one server process on a throwaway cluster (see Method), after a `VACUUM ANALYZE` of the ' +
          'bulk-loaded database (what autovacuum does shortly after such a load).',
      ],
      figures,
    };
  },
};

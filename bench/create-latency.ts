import fsp from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { startPostgresCluster, type PostgresCluster } from '../test/support/postgres-cluster';
import { httpRequest, signUpMany, type Session } from './lib/clients';
import { projectInput } from './lib/data';
import { Random } from './lib/random';
import { seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, percentile } from './lib/stats';
import type { Benchmark } from './lib/types';

const CREATES = 200;
const WARM_UP = 20;

async function sequentialCreates(
  baseUrl: string,
  session: Session,
  assignees: string[],
  count: number,
  seedNumber: number,
) {
  const random = new Random(seedNumber);
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const body = JSON.stringify(projectInput(random, assignees));
    const started = performance.now();
    const response = await httpRequest(`${baseUrl}/api/projects`, {
      method: 'POST',
      headers: { cookie: session.cookie, 'content-type': 'application/json' },
      body,
    });
    latencies.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`create → ${response.status}: ${response.body.toString()}`);
  }
  return latencies;
}

/**
 * What one WAL sync costs on the data dir's disk: every create's answer waits for one (group commit,
 * docs/decisions/014-durability.md), so this is the floor under the create latency.
 */
async function diskSyncLatencies(dir: string, count: number): Promise<number[]> {
  const file = path.join(dir, 'sync-probe');
  const handle = await fsp.open(file, 'w');
  const page = Buffer.alloc(4096, 1);
  const latencies: number[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      await handle.write(page, 0, page.length, index * page.length);
      const started = performance.now();
      await handle.datasync();
      latencies.push(performance.now() - started);
    }
  } finally {
    await handle.close();
    await fsp.rm(file, { force: true });
  }
  return latencies;
}

/**
 * A backend reports its statistics at a transaction's end at most once a second, and when idle within 10 s
 * (PostgreSQL 15+): after a run, the server's pooled connections have reported everything once idle that long.
 */
const waitForStatsFlush = () => new Promise((resolve) => setTimeout(resolve, 11_000));

const COUNTED_CREATES = 20;

/**
 * Statements the server sends PostgreSQL per create, each one round trip (node-postgres sends one at a
 * time): PostgreSQL logs every statement while `log_statement` is `all`, and the lines the counted creates
 * add to the cluster's log are counted. A backend takes up a new setting only between two statements, so
 * creates made first let every pooled connection take it up before counting starts.
 */
async function statementsPerCreate(
  cluster: PostgresCluster,
  create: (count: number) => Promise<unknown>,
): Promise<number> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const logFile = path.join(cluster.dir, 'postgres.log');
  try {
    await admin.query("alter system set log_statement = 'all'");
    await admin.query('select pg_reload_conf()');
    await create(COUNTED_CREATES);
    const from = (await fsp.stat(logFile)).size;
    await create(COUNTED_CREATES);
    const logged = (await fsp.readFile(logFile)).subarray(from).toString('utf8');
    const statements = logged.match(/LOG: {2}(statement|execute [^:]*):/g)?.length ?? 0;
    return statements / COUNTED_CREATES;
  } finally {
    await admin.query('alter system reset log_statement');
    await admin.query('select pg_reload_conf()');
    await admin.end();
  }
}

/** The same creates against one server on a PostgreSQL cluster with the stock durability settings. */
async function postgresCreates(
  tmpDir: string,
  runs: number,
  log: (line: string) => void,
  cpuProfDir: string | undefined,
): Promise<{
  latencies: number[][];
  walSyncsPerCreate: number[];
  commitsPerCreate: number[];
  connectionsPerRun: number[];
  statementsPerCreate: number;
}> {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE dojo_bench');
    await admin.end();
    const databaseUrl = cluster.url.replace(/\/postgres$/, '/dojo_bench');
    const dataDir = path.join(tmpDir, 'postgres');
    const seeded = await seed({ dataDir, databaseUrl, users: 30, projects: 1000, comments: 0 });
    const server = await startServer({ dataDir, databaseUrl, cpuProfDir });
    try {
      const [session] = await signUpMany(server.url, 1, 'create-pg');
      if (!session) throw new Error('no session');
      const assignees = [session.uid, ...seeded.users.map((user) => user.uid)];
      await sequentialCreates(server.url, session, assignees, WARM_UP, 1);
      const stats = new pg.Client({ connectionString: databaseUrl });
      await stats.connect();
      // Cluster-wide WAL syncs (the WAL writer's too) and this database's commits: what each create costs.
      const counters = async () => {
        const { rows } = await stats.query<{ syncs: string; commits: string; sessions: string }>(
          'select (select wal_sync from pg_stat_wal) as syncs, xact_commit as commits, sessions ' +
            'from pg_stat_database where datname = current_database()',
        );
        return {
          syncs: Number(rows[0]?.syncs),
          commits: Number(rows[0]?.commits),
          sessions: Number(rows[0]?.sessions),
        };
      };
      const results: number[][] = [];
      const walSyncsPerCreate: number[] = [];
      const commitsPerCreate: number[] = [];
      const connectionsPerRun: number[] = [];
      try {
        // The warm-up's statistics too, or the first run counts them as its own (≈ 0.27 commits and 0.1
        // WAL syncs per create more than the other runs).
        await waitForStatsFlush();
        for (let run = 0; run < runs; run += 1) {
          await stats.query('select pg_stat_clear_snapshot()');
          const before = await counters();
          const latencies = await sequentialCreates(server.url, session, assignees, CREATES, 200 + run);
          await waitForStatsFlush();
          await stats.query('select pg_stat_clear_snapshot()');
          const after = await counters();
          results.push(latencies);
          walSyncsPerCreate.push((after.syncs - before.syncs) / CREATES);
          commitsPerCreate.push((after.commits - before.commits) / CREATES);
          connectionsPerRun.push(after.sessions - before.sessions);
          log(
            `PostgreSQL run ${run + 1}: p50 ${fmt(percentile(latencies, 50), 2)} ms, ` +
              `p99 ${fmt(percentile(latencies, 99), 2)} ms, ` +
              `${fmt(walSyncsPerCreate.at(-1) ?? 0, 2)} WAL syncs and ${fmt(commitsPerCreate.at(-1) ?? 0, 2)} commits per create, ` +
              `${connectionsPerRun.at(-1) ?? 0} connections opened`,
          );
        }
      } finally {
        await stats.end();
      }
      // After the timed runs: logging every statement would slow them.
      const statements = await statementsPerCreate(cluster, (count) =>
        sequentialCreates(server.url, session, assignees, count, 300),
      );
      log(`PostgreSQL: ${fmt(statements, 2)} statements (round trips) per create`);
      return {
        latencies: results,
        walSyncsPerCreate,
        commitsPerCreate,
        connectionsPerRun,
        statementsPerCreate: statements,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await cluster.stop();
  }
}

export const createLatency: Benchmark = {
  id: 'create',
  title: 'Create latency: 200 sequential creates (SQLite and PostgreSQL, durable)',
  async run(context) {
    const postgres = await postgresCreates(context.tmpDir, context.runs, context.log, context.cpuProfDir);
    const dataDir = path.join(context.tmpDir, 'data');
    const seeded = await seed({ dataDir, users: 30, projects: 1000, comments: 0 });
    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    try {
      const [session] = await signUpMany(server.url, 1, 'create');
      if (!session) throw new Error('no session');
      const assignees = [session.uid, ...seeded.users.map((user) => user.uid)];
      await sequentialCreates(server.url, session, assignees, WARM_UP, 1);
      const runs: number[][] = [];
      const syncRuns: number[][] = [];
      for (let run = 0; run < context.runs; run += 1) {
        const latencies = await sequentialCreates(server.url, session, assignees, CREATES, 100 + run);
        runs.push(latencies);
        syncRuns.push(await diskSyncLatencies(dataDir, CREATES));
        context.log(
          `run ${run + 1}: p50 ${fmt(percentile(latencies, 50), 2)} ms, p99 ${fmt(percentile(latencies, 99), 2)} ms`,
        );
      }
      return {
        status: 'ok',
        method: [
          `${CREATES} \`POST /api/projects\` per run, one after another on a keep-alive connection with a session ` +
            `cookie, realistic bodies (1–4 assignees); ${WARM_UP} warm-up creates first. SQLite, 1,000 projects ` +
            'already there, no live subscribers. Latency is measured in the client: request written → answer read.',
          'PostgreSQL: the same on a throwaway cluster with the stock durability settings (fsync, ' +
            'synchronous_commit and full_page_writes on): every answer waits for PostgreSQL’s own commit flush. ' +
            'WAL syncs and commits per create are counted from `pg_stat_wal` and `pg_stat_database` around each ' +
            `run; statements per create (each one round trip) from PostgreSQL's log with \`log_statement = all\`, ` +
            `over ${COUNTED_CREATES} creates after the timed runs.`,
          'Every answer waits until its commit is on disk: one `fdatasync` of the WAL off the event loop, shared by ' +
            'concurrent writes (docs/decisions/014-durability.md). “disk sync” is that cost alone on the data ' +
            `dir's disk (${CREATES} × write 4 KiB + fdatasync after each run): the floor under a create's latency.`,
        ],
        figures: [
          figure(
            'create.p50',
            'p50',
            'ms',
            runs.map((latencies) => percentile(latencies, 50)),
            2,
          ),
          figure(
            'create.p99',
            'p99',
            'ms',
            runs.map((latencies) => percentile(latencies, 99)),
            2,
          ),
          figure(
            'create.sync.p50',
            'disk sync p50',
            'ms',
            syncRuns.map((latencies) => percentile(latencies, 50)),
            2,
          ),
          figure(
            'create.sync.p99',
            'disk sync p99',
            'ms',
            syncRuns.map((latencies) => percentile(latencies, 99)),
            2,
          ),
          figure(
            'create.postgres.p99',
            'PostgreSQL (fsync on): p99',
            'ms',
            postgres.latencies.map((latencies) => percentile(latencies, 99)),
            2,
          ),
          figure(
            'create.postgres.p50',
            'PostgreSQL (fsync on): p50',
            'ms',
            postgres.latencies.map((latencies) => percentile(latencies, 50)),
            2,
          ),
          figure(
            'create.postgres.wal-syncs',
            'PostgreSQL: WAL syncs per create (cluster-wide, the WAL writer included)',
            '',
            postgres.walSyncsPerCreate,
            2,
          ),
          figure(
            'create.postgres.commits',
            'PostgreSQL: commits per create',
            '',
            postgres.commitsPerCreate,
            2,
          ),
          figure(
            'create.postgres.connections',
            'PostgreSQL: connections the server opened per run (each run starts after 11 s without requests)',
            '',
            postgres.connectionsPerRun,
            0,
          ),
          figure(
            'create.postgres.statements',
            'PostgreSQL: statements (round trips) per create',
            '',
            [postgres.statementsPerCreate],
            2,
          ),
          figure(
            'create.max',
            'max',
            'ms',
            runs.map((latencies) => percentile(latencies, 100)),
            2,
          ),
        ],
      };
    } finally {
      await server.stop();
    }
  },
};

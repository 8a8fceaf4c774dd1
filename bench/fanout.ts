import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { startPostgresCluster } from '../test/support/postgres-cluster';
import {
  closeAll,
  httpRequest,
  openDashboardTabs,
  signUpMany,
  type LiveSocket,
  type Session,
} from './lib/clients';
import { seed } from './lib/seeder';
import { IDLE_AFTER_MS, idleReading, startServer, type ServerProcess } from './lib/server-process';
import { figure, fmt, MiB, percentile } from './lib/stats';
import type { BenchContext, Figure } from './lib/types';
import type { Benchmark } from './lib/types';

const SESSIONS = 50;
const GAP_MS = 100;

interface FanoutRun {
  /** Per create: ms from sending the create to the last of the sockets receiving it. */
  last: number[];
  /** Per create: ms to the first receipt. */
  first: number[];
  /** Every receipt of every create. */
  all: number[];
  missed: number;
  createMs: number[];
  /** Server CPU (all instances) per create, fan-out included. */
  cpuMsPerCreate: number;
  /** The bench client's own CPU per create (receiving on every socket). */
  clientCpuMsPerCreate: number;
}

/**
 * Sends `creates` project creates one after another (100 ms apart) and times, for each, when every socket
 * has received the change that adds it to the dashboard list. Sockets are matched on a unique token in the
 * project name, so the client does not parse JSON on the hot path.
 */
async function measure(
  servers: ServerProcess[],
  creator: Session,
  sockets: LiveSocket[],
  creates: number,
  label: string,
): Promise<FanoutRun> {
  const run: FanoutRun = {
    last: [],
    first: [],
    all: [],
    missed: 0,
    createMs: [],
    cpuMsPerCreate: 0,
    clientCpuMsPerCreate: 0,
  };
  let token = Buffer.from('-');
  let sequence = 0;
  let started = 0;
  let received = 0;
  let times: number[] = [];
  let allReceived: () => void = () => undefined;
  const seen = new Int32Array(sockets.length);
  const listeners = sockets.map((live, index) => {
    const listener = (data: Buffer) => {
      if (seen[index] === sequence || data.indexOf(token) === -1) return;
      seen[index] = sequence;
      times.push(performance.now() - started);
      received += 1;
      if (received === sockets.length) allReceived();
    };
    live.socket.on('message', listener);
    return listener;
  });
  const createBaseUrl = servers[0]?.url ?? '';
  const cpuOf = async () =>
    (await Promise.all(servers.map((server) => server.cpuMs()))).reduce((a, b) => a + b, 0);
  const cpuBefore = await cpuOf();
  const clientBefore = process.cpuUsage();
  try {
    for (let index = 0; index < creates; index += 1) {
      sequence += 1;
      const name = `Fan-out ${label}-${index}-${Math.random().toString(36).slice(2, 8)}`;
      token = Buffer.from(name);
      received = 0;
      times = [];
      const everyone = new Promise<boolean>((resolve) => {
        allReceived = () => resolve(true);
        setTimeout(() => resolve(false), 15_000).unref();
      });
      const body = JSON.stringify({
        name,
        details: 'Measuring live fan-out.',
        dueDate: '2030-01-01',
        category: 'development',
        assignedUserIds: [creator.uid],
      });
      started = performance.now();
      const response = await httpRequest(`${createBaseUrl}/api/projects`, {
        method: 'POST',
        headers: { cookie: creator.cookie, 'content-type': 'application/json' },
        body,
      });
      run.createMs.push(performance.now() - started);
      if (response.status !== 201)
        throw new Error(`create → ${response.status}: ${response.body.toString()}`);
      const complete = await everyone;
      if (!complete) run.missed += sockets.length - received;
      run.last.push(Math.max(...times));
      run.first.push(Math.min(...times));
      run.all.push(...times);
      await delay(GAP_MS);
    }
    const client = process.cpuUsage(clientBefore);
    run.clientCpuMsPerCreate = (client.user + client.system) / 1000 / creates;
    run.cpuMsPerCreate = ((await cpuOf()) - cpuBefore) / creates;
  } finally {
    sockets.forEach((live, index) => {
      const listener = listeners[index];
      if (listener) live.socket.off('message', listener);
    });
  }
  return run;
}

function figuresOf(prefix: string, runs: FanoutRun[]): Figure[] {
  const at = (pick: (run: FanoutRun) => number[], p: number) => runs.map((run) => percentile(pick(run), p));
  return [
    figure(
      `${prefix}.p50`,
      'create → last socket, p50',
      'ms',
      at((run) => run.last, 50),
    ),
    figure(
      `${prefix}.p99`,
      'create → last socket, p99',
      'ms',
      at((run) => run.last, 99),
    ),
    figure(
      `${prefix}.first`,
      'create → first socket, p50',
      'ms',
      at((run) => run.first, 50),
    ),
    figure(
      `${prefix}.all.p50`,
      'every receipt, p50',
      'ms',
      at((run) => run.all, 50),
    ),
    figure(
      `${prefix}.all.p99`,
      'every receipt, p99',
      'ms',
      at((run) => run.all, 99),
    ),
    figure(
      `${prefix}.create`,
      'create call itself, p50',
      'ms',
      at((run) => run.createMs, 50),
    ),
    figure(
      `${prefix}.create.p99`,
      'create call itself, p99',
      'ms',
      at((run) => run.createMs, 99),
    ),
    figure(
      `${prefix}.cpu`,
      'server CPU per create, fan-out included',
      'ms',
      runs.map((run) => run.cpuMsPerCreate),
    ),
    figure(
      `${prefix}.clientCpu`,
      'bench client CPU per create (all sockets)',
      'ms',
      runs.map((run) => run.clientCpuMsPerCreate),
    ),
    figure(
      `${prefix}.missed`,
      'receipts missing after 15 s',
      '',
      runs.map((run) => run.missed),
      0,
    ),
  ];
}

async function fanoutOn(
  context: BenchContext,
  servers: ServerProcess[],
  subscribers: number,
  creates: number,
  label: string,
  /** Called with the sockets open and idle, before any create (the 10,000-tab run reads RSS there). */
  whenIdle?: () => Promise<void>,
): Promise<FanoutRun[]> {
  const [first] = servers;
  if (!first) throw new Error('no server');
  const sessions = await signUpMany(first.url, SESSIONS + 1, `fanout-${label}`);
  const creator = sessions.pop();
  if (!creator) throw new Error('no creator');
  context.log(`${label}: opening ${subscribers} dashboard sockets over ${servers.length} instance(s)`);
  const sockets = await openDashboardTabs(
    (index) => servers[index % servers.length]?.url ?? '',
    sessions,
    subscribers,
  );
  try {
    await delay(500);
    await whenIdle?.();
    context.log(`${label}: warm-up`);
    await measure(servers, creator, sockets, 5, `${label}-warm`);
    const runs: FanoutRun[] = [];
    for (let run = 0; run < context.runs; run += 1) {
      const result = await measure(servers, creator, sockets, creates, `${label}-${run}`);
      runs.push(result);
      context.log(
        `${label} run ${run + 1}: last p50 ${fmt(percentile(result.last, 50))} ms, ` +
          `p99 ${fmt(percentile(result.last, 99))} ms, missed ${result.missed}`,
      );
    }
    return runs;
  } finally {
    await closeAll(sockets);
  }
}

const MANY_TABS = 10_000;
/** Descriptors the client and the server each need for 10,000 sockets, with room to spare. */
const NOFILE_NEEDED = 16_384;

/** The soft limit of open files of a process (Linux). */
function openFilesLimit(pid: number): number {
  const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
  return line?.[1] === 'unlimited' ? Infinity : Number(line?.[1] ?? 0);
}

/** Raises a process's open-file limit (as `ulimit -n` would) with util-linux `prlimit`, when too low. */
function raiseOpenFiles(pid: number): void {
  if (openFilesLimit(pid) >= NOFILE_NEEDED) return;
  try {
    execFileSync('prlimit', [`--pid=${pid}`, `--nofile=${NOFILE_NEEDED}:${NOFILE_NEEDED}`]);
  } catch (error) {
    throw new Error(
      `process ${pid} may open only ${openFilesLimit(pid)} files and prlimit could not raise it to ` +
        `${NOFILE_NEEDED}: run the bench after \`ulimit -n ${NOFILE_NEEDED}\` (${(error as Error).message})`,
    );
  }
}

/**
 * 10,000 dashboard tabs on one SQLite instance, every socket in this one client process: the create's
 * reach to the last socket, the create's own answer, the client's CPU per create, and the server's RSS
 * with the sockets open and idle.
 */
async function manyTabs(
  context: BenchContext,
  tabs: number,
  creates: number,
): Promise<{ runs: FanoutRun[]; idleRss: number }> {
  raiseOpenFiles(process.pid);
  const dataDir = path.join(context.tmpDir, 'sqlite-many');
  await seed({ dataDir, users: 30, projects: 200, comments: 0 });
  const server = await startServer({
    dataDir,
    webRoot: await context.webRoot(),
    cpuProfDir: context.cpuProfDir,
  });
  let idleRss = Number.NaN;
  try {
    raiseOpenFiles(server.pid);
    const runs = await fanoutOn(context, [server], tabs, creates, 'sqlite10k', async () => {
      idleRss = (await idleReading(server)).rss;
      context.log(`sqlite10k: RSS with ${tabs} idle sockets ${fmt(idleRss / MiB)} MiB`);
    });
    return { runs, idleRss };
  } finally {
    await server.stop();
  }
}

export const fanout: Benchmark = {
  id: 'fanout',
  title: 'Live fan-out: one change to 1,000 subscribed sockets, and to 10,000 tabs',
  async run(context) {
    const subscribers = context.quick ? 200 : 1000;
    const creates = context.quick ? 10 : 40;

    // SQLite: one instance.
    const sqliteDir = path.join(context.tmpDir, 'sqlite');
    await seed({ dataDir: sqliteDir, users: 30, projects: 200, comments: 0 });
    const sqliteServer = await startServer({ dataDir: sqliteDir, cpuProfDir: context.cpuProfDir });
    let sqliteRuns: FanoutRun[];
    try {
      sqliteRuns = await fanoutOn(context, [sqliteServer], subscribers, creates, 'sqlite');
    } finally {
      await sqliteServer.stop();
    }

    // 10,000 tabs on one SQLite instance, all in this process.
    const manyTabCount = context.quick ? 2000 : MANY_TABS;
    const many = await manyTabs(context, manyTabCount, creates);

    // PostgreSQL: two instances on one database, half the sockets on each; creates go to the first.
    context.log('starting a throwaway PostgreSQL cluster');
    const cluster = await startPostgresCluster({ durable: true });
    let postgresRuns: FanoutRun[];
    try {
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query('CREATE DATABASE dojo_bench');
      await admin.end();
      const databaseUrl = cluster.url.replace(/\/postgres$/, '/dojo_bench');
      const dataDir = path.join(context.tmpDir, 'postgres');
      await seed({ dataDir, databaseUrl, users: 30, projects: 200, comments: 0 });
      const servers = await Promise.all([
        startServer({ dataDir, databaseUrl, cpuProfDir: context.cpuProfDir }),
        startServer({ dataDir, databaseUrl, cpuProfDir: context.cpuProfDir }),
      ]);
      try {
        postgresRuns = await fanoutOn(context, servers, subscribers, creates, 'postgres');
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    } finally {
      await cluster.stop();
    }

    return {
      status: 'ok',
      method: [
        `${subscribers} WebSockets, each signed in with one of ${SESSIONS} session cookies and subscribed to the ` +
          'dashboard’s first page (`projects`, newest first, limit 50), as an open dashboard tab is. ' +
          '200 projects seeded, so every change adds one card and drops one.',
        `A further user creates ${creates} projects per run through \`POST /api/projects\`, one at a time, ` +
          `${GAP_MS} ms apart (after 5 warm-up creates). For each create the clock runs from sending the request ` +
          'to the moment the last socket has received the `changes` message that adds it; the figure is the ' +
          'p50/p99 of that over the creates of a run (with 40 creates, p99 is the slowest).',
        'PostgreSQL: two server processes on one database, the sockets alternating between them, creates sent ' +
          'to the first; the change reaches the second instance through `NOTIFY`.',
        'The 1,000 client sockets live in the bench process: the client’s own receive work (about 1,000 small ' +
          'WebSocket messages) is inside the figure, as it is for the peer.',
        `${manyTabCount.toLocaleString('en-US')} tabs: one SQLite instance serving the web build as \`npm start\`’s does, every socket in the bench process ` +
          '(one client process, as the issue measures it; its open-file limit is raised with `prlimit` when ' +
          `below ${NOFILE_NEEDED.toLocaleString('en-US')}), the same creates; the server’s RSS is read with the ` +
          `sockets open and idle, before the first create: ${IDLE_AFTER_MS / 1000} s after the last socket opened ` +
          '(past the server’s quiet release), a full GC. “bench client CPU per create” ' +
          'is the client process receiving the message on every socket: it shares the 2 cores with the server ' +
          'and sits inside the create → last socket figure.',
      ],
      figures: [
        ...figuresOf('fanout.sqlite', sqliteRuns),
        ...figuresOf('fanout.postgres', postgresRuns),
        ...figuresOf('fanout.tabs', many.runs),
      ]
        .map((item) => ({
          ...item,
          label: `${
            item.id.startsWith('fanout.sqlite')
              ? 'SQLite'
              : item.id.startsWith('fanout.tabs')
                ? `SQLite, ${manyTabCount.toLocaleString('en-US')} tabs`
                : 'PostgreSQL ×2'
          }: ${item.label}`,
        }))
        .concat(
          figure(
            'fanout.tabs.rss',
            `SQLite, ${manyTabCount.toLocaleString('en-US')} tabs: server RSS with the sockets idle`,
            'MiB',
            [many.idleRss / MiB],
          ),
        ),
    };
  },
};

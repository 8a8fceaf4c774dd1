import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Comment, Project } from '../src/common';
import { loadConfig } from '../src/server/config/config';
import { openDatabase } from '../src/server/db/database';
import { httpRequest, openDashboardTabs, type LiveSocket, type Session } from './lib/clients';
import { commentText, projectInput } from './lib/data';
import { Random } from './lib/random';
import { seed } from './lib/seeder';
import { startServer, type ServerProcess } from './lib/server-process';
import { figure, fmt, MiB, nowMs, percentile, sum } from './lib/stats';
import type { Benchmark, Figure } from './lib/types';

/** The mix of one user's actions, by cumulative share (Mattermost-style load test). */
const MIX = [
  { kind: 'list', upTo: 0.6 },
  { kind: 'open', upTo: 0.85 },
  { kind: 'comment', upTo: 0.95 },
  { kind: 'create', upTo: 1 },
] as const;
type Action = (typeof MIX)[number]['kind'];

const THINK_MS = 1000;
/** A request unanswered this long counts as an error (and frees its user's loop). */
const REQUEST_TIMEOUT_MS = 30_000;
const SEEDED_PROJECTS = 1000;
const SEEDED_COMMENTS = 3000;
/** What the dashboard's list asks for: its first page. */
const LIST_LIMIT = 50;

interface StepResult {
  users: number;
  seconds: number;
  latencies: number[];
  byKind: Record<Action, number[]>;
  errors: number;
  errorSamples: string[];
  liveDrops: number;
  ackedProjects: string[];
  ackedComments: string[];
  lost: number;
  rssMax: number;
  rssEnd: number;
  loadBefore: number[];
  loadAfter: number[];
  /** CPU time over the run, as a share of one core: the server's and the bench client's own. */
  serverCpu: number;
  clientCpu: number;
}

/** Think time with ±50 % jitter, so users do not act in lockstep. */
const think = (random: Random) => THINK_MS / 2 + random.next() * THINK_MS;

function pickAction(random: Random): Action {
  const roll = random.next();
  return (MIX.find((entry) => roll < entry.upTo) ?? MIX[0]).kind;
}

/** Ids of `ids` that are not in `table` (read straight from the data dir once the server stopped). */
async function missingIds(dataDir: string, table: 'projects' | 'comments', ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  try {
    let found = 0;
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      const rows = await database.db.selectFrom(table).select('id').where('id', 'in', chunk).execute();
      found += rows.length;
    }
    return ids.length - found;
  } finally {
    await database.close();
  }
}

async function runStep(options: {
  dataDir: string;
  users: number;
  seconds: number;
  sessions: Session[];
  projectIds: string[];
  cpuProfDir: string | undefined;
  log: (line: string) => void;
}): Promise<StepResult> {
  const { users, seconds, sessions } = options;
  const server: ServerProcess = await startServer({
    dataDir: options.dataDir,
    cpuProfDir: options.cpuProfDir,
  });
  let tabs: LiveSocket[] = [];
  const result: StepResult = {
    users,
    seconds,
    latencies: [],
    byKind: { list: [], open: [], comment: [], create: [] },
    errors: 0,
    errorSamples: [],
    liveDrops: 0,
    ackedProjects: [],
    ackedComments: [],
    lost: 0,
    rssMax: 0,
    rssEnd: 0,
    loadBefore: os.loadavg(),
    loadAfter: [],
    serverCpu: 0,
    clientCpu: 0,
  };
  // A connection of its own per user, as each user's browser has: no user waits for another's socket.
  const agent = new http.Agent({ keepAlive: true });
  const projectIds = [...options.projectIds];
  const userIds = sessions.map((session) => session.uid);
  const fail = (what: string) => {
    result.errors += 1;
    if (result.errorSamples.length < 5) result.errorSamples.push(what);
  };
  let running = true;
  try {
    // Every user has the dashboard open: a live subscription to the first page of all projects.
    tabs = await openDashboardTabs(server.url, sessions.slice(0, users), users);
    for (const tab of tabs) {
      tab.socket.on('close', () => {
        if (running) result.liveDrops += 1;
      });
    }
    const sampler = setInterval(() => {
      result.rssMax = Math.max(result.rssMax, server.rss());
    }, 1000);
    const startedAt = nowMs();
    const serverCpuBefore = await server.cpuMs();
    const clientCpuBefore = process.cpuUsage();
    const deadline = startedAt + seconds * 1000;
    // Bounded by count as well as by time: a user cannot act more often than its think time allows.
    const maxActions = Math.ceil((seconds * 1000) / (THINK_MS / 2)) + 1;

    const act = async (session: Session, random: Random): Promise<void> => {
      const action = pickAction(random);
      const headers: Record<string, string> = { cookie: session.cookie };
      let method = 'GET';
      let url: string;
      let body: string | undefined;
      let expected = 200;
      if (action === 'list') {
        url = `/api/projects?limit=${LIST_LIMIT}`;
      } else if (action === 'open') {
        url = `/api/projects/${random.pick(projectIds)}`;
      } else if (action === 'comment') {
        method = 'POST';
        url = `/api/projects/${random.pick(projectIds)}/comments`;
        body = JSON.stringify({ content: commentText(random) });
        expected = 201;
      } else {
        method = 'POST';
        url = '/api/projects';
        body = JSON.stringify(projectInput(random, userIds));
        expected = 201;
      }
      if (body !== undefined) headers['content-type'] = 'application/json';
      const started = nowMs();
      try {
        const response = await httpRequest(`${server.url}${url}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          timeoutMs: REQUEST_TIMEOUT_MS,
          agent,
        });
        const ms = nowMs() - started;
        result.latencies.push(ms);
        result.byKind[action].push(ms);
        if (response.status !== expected) {
          fail(`${method} ${url} → ${response.status} ${response.body.toString().slice(0, 120)}`);
          return;
        }
        // Acknowledged: it must be there afterwards.
        if (action === 'create') {
          const { project } = JSON.parse(response.body.toString()) as { project: Project };
          result.ackedProjects.push(project.id);
          projectIds.push(project.id);
        } else if (action === 'comment') {
          const { comment } = JSON.parse(response.body.toString()) as { comment: Comment };
          result.ackedComments.push(comment.id);
        }
      } catch (error) {
        fail(`${method} ${url}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };

    await Promise.all(
      sessions.slice(0, users).map(async (session, index) => {
        const random = new Random(1000 + index);
        for (let count = 0; count < maxActions; count += 1) {
          await delay(think(random));
          if (nowMs() >= deadline) return;
          await act(session, random);
        }
      }),
    );
    clearInterval(sampler);
    const wall = nowMs() - startedAt;
    const clientCpu = process.cpuUsage(clientCpuBefore);
    result.clientCpu = (clientCpu.user + clientCpu.system) / 1000 / wall;
    result.serverCpu = ((await server.cpuMs()) - serverCpuBefore) / wall;
    result.rssEnd = server.rss();
    result.rssMax = Math.max(result.rssMax, result.rssEnd);
  } finally {
    running = false;
    for (const tab of tabs) tab.close();
    agent.destroy();
    result.loadAfter = os.loadavg();
    await server.stop();
  }
  result.lost =
    (await missingIds(options.dataDir, 'projects', result.ackedProjects)) +
    (await missingIds(options.dataDir, 'comments', result.ackedComments));
  const average = sum(result.latencies) / result.latencies.length;
  options.log(
    `${users} users × ${seconds} s: ${result.latencies.length} requests, avg ${fmt(average)} ms, ` +
      `p99 ${fmt(percentile(result.latencies, 99))} ms, ${result.errors} errors, ${result.liveDrops} live ` +
      `drops, ${result.lost} lost of ${result.ackedProjects.length + result.ackedComments.length}, ` +
      `RSS max ${fmt(result.rssMax / MiB, 0)} MiB, CPU server ${fmt(result.serverCpu * 100, 0)} % ` +
      `client ${fmt(result.clientCpu * 100, 0)} %, load ${result.loadAfter.map((value) => fmt(value, 2)).join(' / ')}`,
  );
  for (const sample of result.errorSamples) options.log(`  error: ${sample}`);
  return result;
}

export const load: Benchmark = {
  id: 'load',
  title: 'Load: N users × 60 s of a mixed workload, each with a live dashboard',
  async run(context) {
    const steps = context.quick ? [20, 50] : [100, 200, 500];
    const seconds = context.quick ? 10 : 60;
    const largest = steps[steps.length - 1] ?? 0;
    const dataDir = path.join(context.tmpDir, 'data');
    const seeded = await seed({
      dataDir,
      users: largest,
      projects: SEEDED_PROJECTS,
      comments: SEEDED_COMMENTS,
      log: (line) => context.log(`seed: ${line}`),
    });
    // The signups' own sessions: 500 API logins would be 500 scrypt hashes before the run even starts.
    const sessions: Session[] = seeded.users.map((user) => ({
      uid: user.uid,
      email: user.email,
      cookie: `dojo_session=${user.sessionToken}`,
      idToken: '',
    }));

    const results: StepResult[] = [];
    // One run per step: a 60 s run is thousands of samples, and the steps share the growing data dir.
    for (const users of steps) {
      results.push(
        await runStep({
          dataDir,
          users,
          seconds,
          sessions,
          projectIds: seeded.projectIds,
          cpuProfDir: context.cpuProfDir,
          log: context.log,
        }),
      );
    }

    const figures: Figure[] = [];
    const rows: string[] = [];
    for (const step of results) {
      const n = step.users;
      const average = sum(step.latencies) / step.latencies.length;
      const p99 = percentile(step.latencies, 99);
      const acked = step.ackedProjects.length + step.ackedComments.length;
      figures.push(
        figure(`load.${n}.avg`, `${n} users: average latency`, 'ms', [average]),
        figure(`load.${n}.p99`, `${n} users: p99 latency`, 'ms', [p99]),
        figure(
          `load.${n}.errors`,
          `${n} users: errors (failed requests + dropped live sockets)`,
          '',
          [step.errors + step.liveDrops],
          0,
        ),
        figure(`load.${n}.lost`, `${n} users: acknowledged writes missing afterwards`, '', [step.lost], 0),
        figure(`load.${n}.rss`, `${n} users: server RSS (max)`, 'MiB', [step.rssMax / MiB], 0),
      );
      const kinds = (Object.keys(step.byKind) as Action[])
        .map(
          (kind) =>
            `${kind} ${fmt(sum(step.byKind[kind]) / step.byKind[kind].length)} / ` +
            `${fmt(percentile(step.byKind[kind], 99))}`,
        )
        .join('; ');
      rows.push(
        `| ${n} | ${step.latencies.length.toLocaleString('en-US')} | ` +
          `${fmt(step.latencies.length / step.seconds, 0)} | ${fmt(average)} | ` +
          `${fmt(percentile(step.latencies, 50))} | ${fmt(p99)} | ${fmt(Math.max(...step.latencies), 0)} | ` +
          `${step.errors} / ${step.liveDrops} | ${step.lost} of ${acked} | ${fmt(step.rssMax / MiB, 0)} MiB | ` +
          `${fmt(step.serverCpu * 100, 0)} % / ${fmt(step.clientCpu * 100, 0)} % | ` +
          `${step.loadAfter.map((value) => fmt(value, 2)).join(' / ')} | ${kinds} |`,
      );
    }
    return {
      status: 'ok',
      method: [
        `One server (SQLite) on a data dir seeded with ${largest} users, ${SEEDED_PROJECTS.toLocaleString('en-US')} ` +
          `projects and ${SEEDED_COMMENTS.toLocaleString('en-US')} comments (bench/lib/seeder.ts; each user's ` +
          'signup session is its cookie, so no login runs during the bench). For each step a fresh server ' +
          'process starts on that data dir (the steps run one after another, so later steps see the earlier ' +
          'ones’ writes).',
        `Each of N users first opens a dashboard tab (a \`/live\` socket subscribed to the first page of all ` +
          `projects, which every create changes: each create is fanned out to all N sockets), then for ` +
          `${seconds} s loops: think ${THINK_MS / 2}–${(THINK_MS * 3) / 2} ms (uniform), then one request: ` +
          `list (\`GET /api/projects?limit=${LIST_LIMIT}\`) 60 %, open a project (\`GET /api/projects/{id}\`) ` +
          '25 %, comment 10 %, create 5 %. Every user is one async loop in the bench process with a keep-alive ' +
          'connection of its own (one agent without a socket cap); requests time out after 30 s (an error).',
        'Latency: from sending a request to its whole answer, every request of the step. Errors: answers ' +
          'other than 200/201, failed or timed-out requests, and live sockets closed during the run. ' +
          'Lost: after the server stopped, every acknowledged (201) create and comment is looked up by id in ' +
          'the database. RSS: the server’s VmRSS, sampled every second.',
      ],
      figures,
      details: [
        '| users | requests | req/s | avg ms | p50 ms | p99 ms | max ms | errors / live drops | lost | RSS max | CPU server / client | load avg after | avg / p99 ms by kind |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
      ],
    };
  },
};

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpRequest, signUpMany, type Session } from './lib/clients';
import { projectInput } from './lib/data';
import { Random } from './lib/random';
import { seed } from './lib/seeder';
import { startBareServer, startServer, type ServerProcess } from './lib/server-process';
import { figure, fmt, percentile } from './lib/stats';
import type { Benchmark } from './lib/types';

const PROJECTS = 1000;
const LIST_PATH = `/api/projects?limit=${PROJECTS}`;
const CONNECTIONS = 10;

interface Load {
  requestsPerSecond: number;
  p99: number;
  p50: number;
  bytesPerSecond: number;
  bad: number;
  /** Server CPU time (user + system) per answered request. */
  cpuMsPerRequest: number;
}

async function load(server: ServerProcess, headers: Record<string, string>, seconds: number): Promise<Load> {
  const cpuBefore = await server.cpuMs();
  const result = await autocannon({
    url: `${server.url}${LIST_PATH}`,
    headers,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const cpu = (await server.cpuMs()) - cpuBefore;
  return {
    cpuMsPerRequest: cpu / Math.max(1, result.requests.total),
    requestsPerSecond: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    bytesPerSecond: result.throughput.average,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const pick = (loads: Load[], key: keyof Load): number[] => loads.map((result) => result[key]);

const FIRST_PAGE_PATH = '/api/projects?limit=50';
const WRITE_EVERY_MS = 100;

async function createProject(server: ServerProcess, session: Session, random: Random): Promise<void> {
  const answer = await httpRequest(`${server.url}/api/projects`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(projectInput(random, [session.uid])),
  });
  if (answer.status !== 201) throw new Error(`create → ${answer.status}: ${answer.body.toString()}`);
}

/**
 * The uncached path: every read comes right after a create (answered, so its commit dropped the cached
 * list bodies), so no read can be served from a body built for an earlier one. Returns the reads' ms.
 */
async function readsAfterWrites(
  server: ServerProcess,
  session: Session,
  listPath: string,
  count: number,
  random: Random,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count; index += 1) {
    await createProject(server, session, random);
    const started = performance.now();
    const answer = await httpRequest(`${server.url}${listPath}`, { headers: { cookie: session.cookie } });
    latencies.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`list → ${answer.status}`);
  }
  return latencies;
}

/** List throughput under autocannon while the bench creates one project every 100 ms. */
async function loadWhileWriting(
  server: ServerProcess,
  session: Session,
  seconds: number,
  random: Random,
): Promise<Load & { writes: number }> {
  let writes = 0;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      const started = performance.now();
      await createProject(server, session, random);
      writes += 1;
      const left = WRITE_EVERY_MS - (performance.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    }
  })();
  try {
    return { ...(await load(server, { cookie: session.cookie }, seconds)), writes };
  } finally {
    writing = false;
    await writer;
  }
}

/**
 * GET /api/projects?limit=1000 with a session cookie, under autocannon (10 connections, keep-alive), and a
 * bare node:http server sending the very same bytes in the same run, alternated run by run.
 */
export const listThroughput: Benchmark = {
  id: 'list',
  title: 'List API throughput (1,000 projects)',
  async run(context) {
    const seconds = context.quick ? 2 : 5;
    const dataDir = path.join(context.tmpDir, 'list');
    context.log(`seeding ${PROJECTS} projects`);
    await seed({ dataDir, users: 30, projects: PROJECTS, comments: 0 });
    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    let bare: Awaited<ReturnType<typeof startBareServer>> | undefined;
    try {
      const [session] = await signUpMany(server.url, 1, 'list');
      if (!session) throw new Error('no session');
      const headers = { cookie: session.cookie };
      const answer = await httpRequest(`${server.url}${LIST_PATH}`, { headers });
      const count = (JSON.parse(answer.body.toString()) as { projects: unknown[] }).projects.length;
      if (answer.status !== 200 || count !== PROJECTS) {
        throw new Error(`list answered ${answer.status} with ${count} projects`);
      }
      const file = path.join(context.tmpDir, 'list-body.json');
      await writeFile(file, answer.body);
      bare = await startBareServer({
        BARE_MODE: 'bytes',
        BARE_FILE: file,
        BARE_CONTENT_TYPE: String(answer.headers['content-type']),
      });

      context.log('warm-up');
      await load(server, headers, 1);
      await load(bare, {}, 1);

      const dojo: Load[] = [];
      const baseline: Load[] = [];
      for (let run = 0; run < context.runs; run += 1) {
        // Alternate which goes first, so drift on a shared machine hits both alike.
        const order = run % 2 === 0 ? (['dojo', 'bare'] as const) : (['bare', 'dojo'] as const);
        for (const which of order) {
          const result =
            which === 'dojo' ? await load(server, headers, seconds) : await load(bare, {}, seconds);
          (which === 'dojo' ? dojo : baseline).push(result);
          context.log(
            `run ${run + 1} ${which}: ${fmt(result.requestsPerSecond)} req/s, p99 ${result.p99} ms` +
              (result.bad ? `, ${result.bad} bad` : ''),
          );
        }
      }
      context.log('uncached path: a create before every read');
      const random = new Random(7);
      const reads = context.quick ? 20 : 100;
      const uncachedFirst: number[][] = [];
      const uncachedLarge: number[][] = [];
      const mixed: (Load & { writes: number })[] = [];
      for (let run = 0; run < context.runs; run += 1) {
        uncachedFirst.push(await readsAfterWrites(server, session, FIRST_PAGE_PATH, reads, random));
        uncachedLarge.push(await readsAfterWrites(server, session, LIST_PATH, reads, random));
        const mixedRun = await loadWhileWriting(server, session, seconds, random);
        mixed.push(mixedRun);
        context.log(
          `run ${run + 1} uncached: first page p50 ${fmt(percentile(uncachedFirst[run] ?? [], 50), 2)} ms, ` +
            `1,000 p50 ${fmt(percentile(uncachedLarge[run] ?? [], 50), 2)} ms; while writing ` +
            `${fmt(mixedRun.requestsPerSecond)} req/s (${mixedRun.writes} creates)`,
        );
      }
      const mixedRatios = mixed.map(
        (result, index) => result.requestsPerSecond / (baseline[index]?.requestsPerSecond ?? 1),
      );
      const ratios = dojo.map(
        (result, index) => result.requestsPerSecond / (baseline[index]?.requestsPerSecond ?? 1),
      );
      const bad = dojo.reduce((total, result) => total + result.bad, 0);
      return {
        status: 'ok',
        method: [
          `${PROJECTS} seeded projects (1–4 assignees each); \`GET ${LIST_PATH}\` with a session cookie; ` +
            `answer ${fmt(answer.body.length / 1024 / 1024, 2)} MiB of JSON (${answer.body.length.toLocaleString('en-US')} bytes).`,
          `autocannon ${CONNECTIONS} connections, ${seconds} s per run after a 1 s warm-up, in the bench process; ` +
            'the server and the bare baseline are separate processes on 127.0.0.1. The baseline is a bare ' +
            '`node:http` server answering every request with the very same bytes (captured in this run). ' +
            'Runs alternate Dojo/bare so drift on a shared machine hits both.',
          `Uncached path: ${reads} reads per run of the first page (\`${FIRST_PAGE_PATH}\`) and ${reads} of ` +
            `\`${LIST_PATH}\`, each right after a \`POST /api/projects\` was answered (its commit drops every ` +
            'cached list body), one request at a time on a keep-alive connection; the figure is the p50 of the reads.',
          `While writing: the same autocannon load for ${seconds} s while the bench creates one project every ` +
            `${WRITE_EVERY_MS} ms (so the cached body lives at most ${WRITE_EVERY_MS} ms); ratio to the bare server of the same run.`,
          bad ? `**${bad} non-2xx/errored requests** during the Dojo runs.` : 'Every request answered 200.',
        ],
        figures: [
          figure('list.ratio', 'throughput / bare node:http', '×', ratios, 3),
          figure('list.rps', 'Dojo throughput', 'req/s', pick(dojo, 'requestsPerSecond')),
          figure('list.p99', 'Dojo latency p99', 'ms', pick(dojo, 'p99'), 0),
          figure('list.p50', 'Dojo latency p50', 'ms', pick(dojo, 'p50'), 0),
          figure('list.cpu', 'Dojo server CPU per request', 'ms', pick(dojo, 'cpuMsPerRequest'), 2),
          figure(
            'list.uncached.first.p50',
            'first page (50) right after a write, p50',
            'ms',
            uncachedFirst.map((latencies) => percentile(latencies, 50)),
            2,
          ),
          figure(
            'list.uncached.1000.p50',
            '1,000 projects right after a write, p50',
            'ms',
            uncachedLarge.map((latencies) => percentile(latencies, 50)),
            2,
          ),
          figure(
            'list.uncached.1000.p99',
            '1,000 projects right after a write, p99',
            'ms',
            uncachedLarge.map((latencies) => percentile(latencies, 99)),
            2,
          ),
          figure('list.mixed.ratio', 'throughput while creating every 100 ms / bare', '×', mixedRatios, 3),
          figure(
            'list.mixed.rps',
            'Dojo throughput while creating every 100 ms',
            'req/s',
            pick(mixed, 'requestsPerSecond'),
          ),
          figure('list.bare.rps', 'bare node:http throughput', 'req/s', pick(baseline, 'requestsPerSecond')),
          figure('list.bare.p99', 'bare node:http latency p99', 'ms', pick(baseline, 'p99'), 0),
          figure('list.bare.cpu', 'bare server CPU per request', 'ms', pick(baseline, 'cpuMsPerRequest'), 2),
        ],
      };
    } finally {
      await bare?.stop();
      await server.stop();
    }
  },
};

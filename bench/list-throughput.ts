import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { httpRequest, signUpMany } from './lib/clients';
import { seed } from './lib/seeder';
import { startBareServer, startServer, type ServerProcess } from './lib/server-process';
import { figure, fmt } from './lib/stats';
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
      const headers = { cookie: session?.cookie ?? '' };
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
          bad ? `**${bad} non-2xx/errored requests** during the Dojo runs.` : 'Every request answered 200.',
        ],
        figures: [
          figure('list.ratio', 'throughput / bare node:http', '×', ratios, 3),
          figure('list.rps', 'Dojo throughput', 'req/s', pick(dojo, 'requestsPerSecond')),
          figure('list.p99', 'Dojo latency p99', 'ms', pick(dojo, 'p99'), 0),
          figure('list.p50', 'Dojo latency p50', 'ms', pick(dojo, 'p50'), 0),
          figure('list.cpu', 'Dojo server CPU per request', 'ms', pick(dojo, 'cpuMsPerRequest'), 2),
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

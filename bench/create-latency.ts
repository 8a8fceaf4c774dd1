import fsp from 'node:fs/promises';
import path from 'node:path';
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

export const createLatency: Benchmark = {
  id: 'create',
  title: 'Create latency: 200 sequential creates',
  async run(context) {
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

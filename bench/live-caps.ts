import path from 'node:path';
import {
  LIVE_MAX_SOCKETS_PER_SESSION,
  LIVE_MAX_SOCKETS_PER_USER,
  LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
  type LiveQuery,
} from '../src/common';
import { BENCH_PASSWORD, httpRequest, logIn, openLive, signUpMany, type LiveSocket } from './lib/clients';
import { projectInput } from './lib/data';
import pMap from 'p-map';
import { Random } from './lib/random';
import { seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, nowMs, percentile } from './lib/stats';
import type { Benchmark } from './lib/types';

const ORDERS = ['createdAt', 'dueDate', 'name'] as const;
const DIRECTIONS = ['asc', 'desc'] as const;

/**
 * Distinct project queries that every new project affects (no filter): one query group each on the
 * server, so each create re-evaluates all of them.
 */
function distinctQuery(index: number): LiveQuery {
  const order = index % (ORDERS.length * DIRECTIONS.length);
  return {
    kind: 'query',
    collection: 'projects',
    orderBy: {
      field: ORDERS[order % ORDERS.length] ?? 'createdAt',
      direction: DIRECTIONS[Math.floor(order / ORDERS.length)] ?? 'desc',
    },
    limit: 1 + Math.floor(index / (ORDERS.length * DIRECTIONS.length)),
  };
}

/** One `GET /api/health` after another on a keep-alive connection until `until()`; their latencies. */
async function pollHealth(baseUrl: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const started = nowMs();
    const response = await httpRequest(`${baseUrl}/api/health`, { method: 'GET' });
    latencies.push(nowMs() - started);
    if (response.status !== 200) throw new Error(`health → ${response.status}`);
  }
  return latencies;
}

export const liveCaps: Benchmark = {
  id: 'live-caps',
  title: 'Event loop under one user at the live caps: GET /api/health while projects are created',
  async run(context) {
    const dataDir = path.join(context.tmpDir, 'data');
    await seed({ dataDir, users: 10, projects: 20, comments: 0 });
    const server = await startServer({
      dataDir,
      cpuProfDir: context.cpuProfDir,
      // The product's caps (the bench harness lifts them for the other benchmarks).
      env: {
        LIVE_MAX_SOCKETS_PER_SESSION: String(LIVE_MAX_SOCKETS_PER_SESSION),
        LIVE_MAX_SOCKETS_PER_USER: String(LIVE_MAX_SOCKETS_PER_USER),
        LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: String(LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET),
      },
    });
    const sockets: LiveSocket[] = [];
    try {
      const [hog, creator] = await signUpMany(server.url, 2, 'livecaps');
      if (!hog || !creator) throw new Error('no sessions');
      // As many sessions as the per-user cap needs, each holding as many sockets as the session cap allows.
      const sessionCount = Math.ceil(LIVE_MAX_SOCKETS_PER_USER / LIVE_MAX_SOCKETS_PER_SESSION);
      const sessions = [hog];
      while (sessions.length < sessionCount)
        sessions.push(await logIn(server.url, hog.email, BENCH_PASSWORD));
      const socketCount = context.quick ? 10 : LIVE_MAX_SOCKETS_PER_USER;
      const perSocket = LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET;
      await pMap(
        new Array(socketCount).keys(),
        async (index) => {
          const session = sessions[Math.floor(index / LIVE_MAX_SOCKETS_PER_SESSION)];
          if (!session) throw new Error('no session');
          sockets[index] = await openLive(server.url, session);
        },
        { concurrency: 10 },
      );
      const subscribeStarted = nowMs();
      await pMap(
        new Array(socketCount * perSocket).keys(),
        async (index) => {
          const live = sockets[Math.floor(index / perSocket)];
          if (!live) throw new Error('no socket');
          await live.subscribe(`q${index}`, distinctQuery(index));
        },
        { concurrency: 50 },
      );
      const subscriptions = socketCount * perSocket;
      context.log(
        `${socketCount} sockets over ${sessions.length} sessions hold ${subscriptions} distinct queries ` +
          `(${fmt(nowMs() - subscribeStarted, 0)} ms to subscribe)`,
      );

      const seconds = context.quick ? 5 : 15;
      const p50s: number[] = [];
      const p99s: number[] = [];
      const maxes: number[] = [];
      const random = new Random(7);
      for (let run = 0; run < context.runs; run += 1) {
        const ends = nowMs() + seconds * 1000;
        const done = () => nowMs() >= ends;
        let creates = 0;
        const creating = (async () => {
          // One create every 250 ms: each re-evaluates every group of the hog's queries.
          while (!done()) {
            const response = await httpRequest(`${server.url}/api/projects`, {
              method: 'POST',
              headers: { cookie: creator.cookie, 'content-type': 'application/json' },
              body: JSON.stringify(projectInput(random, [creator.uid])),
            });
            if (response.status !== 201) throw new Error(`create → ${response.status}`);
            creates += 1;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        })();
        const [latencies] = await Promise.all([pollHealth(server.url, done), creating]);
        const p50 = percentile(latencies, 50);
        const p99 = percentile(latencies, 99);
        const max = Math.max(...latencies);
        p50s.push(p50);
        p99s.push(p99);
        maxes.push(max);
        context.log(
          `run ${run + 1}: ${creates} creates, ${latencies.length} health checks: p50 ${fmt(p50, 2)} ms, ` +
            `p99 ${fmt(p99, 2)} ms, max ${fmt(max, 1)} ms`,
        );
      }
      return {
        status: 'ok',
        method: [
          `One user holds the most live data the caps allow: ${LIVE_MAX_SOCKETS_PER_USER} sockets (the per-user ` +
            `cap, over ${sessionCount} sessions of at most ${LIVE_MAX_SOCKETS_PER_SESSION}), each with ` +
            `${perSocket} subscriptions to distinct, unfiltered project queries (orders × limits), so every ` +
            `new project re-evaluates ${LIVE_MAX_SOCKETS_PER_USER * perSocket} query groups` +
            (context.quick ? ` (--quick: ${socketCount} sockets).` : '.'),
          `Meanwhile another user creates a project every 250 ms for ${seconds} s, and an unrelated client ` +
            'sends `GET /api/health` one after another on a keep-alive connection; its latency is measured ' +
            'in the client. SQLite (synchronous queries: the worst case for the event loop).',
        ],
        figures: [
          figure('liveCaps.subscriptions', 'query groups held by the one user', '', [subscriptions], 0),
          figure('liveCaps.healthP50', 'GET /api/health p50', 'ms', p50s, 2),
          figure('liveCaps.healthP99', 'GET /api/health p99', 'ms', p99s, 2),
          figure('liveCaps.healthMax', 'GET /api/health max', 'ms', maxes, 1),
        ],
      };
    } finally {
      for (const live of sockets) live?.close();
      await server.stop();
    }
  },
};

import path from 'node:path';
import { COMMENTS_PAGE_SIZE, projectCommentsQuery, type Comment } from '../src/common';
import { api, openLive, type LiveSocket, type Session } from './lib/clients';
import { seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, median } from './lib/stats';
import type { Benchmark } from './lib/types';

const SMALL = 10;
const LARGE = 10_000;
/** New comments measured per thread and run; their median is the run's figure. */
const NEW_COMMENTS = 9;
/** Opens measured per thread and run (each a fresh evaluation: the group is dropped in between). */
const OPENS = 25;
/** A plain comment of a few sentences, the same for both threads, so only the thread's size differs. */
const COMMENT = 'A new comment on a long thread: the numbers look right, shipping it after lunch. '.repeat(4);

/** Resolves once the subscriber has received a `changes` message (event-driven, no polling). */
function nextChange(live: LiveSocket): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      if (!data.toString().includes('"type":"changes"')) return;
      live.socket.off('message', onMessage);
      resolve();
    };
    live.socket.on('message', onMessage);
  });
}

/**
 * Counts the bytes a subscriber of a project's newest comments receives for one new comment: every
 * message from the post until a probe subscription's snapshot, which the server's serial live queue sends
 * only after the comment's fan-out, so nothing the comment caused can arrive after the count stops. The
 * comment is then deleted (and that change awaited), so the thread keeps its size from one to the next.
 */
async function bytesForNewComment(
  baseUrl: string,
  writer: Session,
  live: LiveSocket,
  projectId: string,
  probe: number,
): Promise<number> {
  let bytes = 0;
  const count = (data: Buffer) => {
    const text = data.toString();
    if (text.includes('"type":"snapshot"') && text.includes(`"probe-${probe}"`)) return;
    bytes += data.length;
  };
  live.socket.on('message', count);
  let commentId: string;
  try {
    const changed = nextChange(live);
    const { comment } = await api<{ comment: Comment }>(
      baseUrl,
      writer,
      'POST',
      `/api/projects/${projectId}/comments`,
      { content: COMMENT },
    );
    commentId = comment.id;
    await changed;
    await live.subscribe(`probe-${probe}`, { kind: 'doc', collection: 'projects', id: 'none' });
    live.socket.send(JSON.stringify({ type: 'unsubscribe', id: `probe-${probe}` }));
  } finally {
    live.socket.off('message', count);
  }
  const removed = nextChange(live);
  await api(baseUrl, writer, 'DELETE', `/api/projects/${projectId}/comments/${commentId}`);
  await removed;
  return bytes;
}

/**
 * Milliseconds from subscribing to each project's newest comments to their snapshot, a fresh evaluation
 * each time, the two projects taking turns so that anything else the server does meanwhile (a WAL
 * checkpoint, a GC) falls on both alike.
 */
async function openTimes(live: LiveSocket, projectIds: readonly string[]): Promise<number[][]> {
  const times = projectIds.map((): number[] => []);
  for (let index = 0; index < OPENS; index += 1) {
    for (const [which, projectId] of projectIds.entries()) {
      const { ms } = await live.subscribe('open', projectCommentsQuery(projectId, COMMENTS_PAGE_SIZE));
      // Alone in its group, so the next subscribe evaluates the query again instead of sharing this result.
      live.socket.send(JSON.stringify({ type: 'unsubscribe', id: 'open' }));
      times[which]?.push(ms);
    }
  }
  return times;
}

export const commentThread: Benchmark = {
  id: 'comment-thread',
  title: 'Comments at scale: a new comment and opening a project, 10 vs 10,000 comments',
  async run(context) {
    const dataDir = path.join(context.tmpDir, 'data');
    const base = await seed({ dataDir, users: 3, projects: 2, comments: 0, emailPrefix: 'thread.user' });
    const [smallId, largeId] = base.projectIds;
    if (!smallId || !largeId) throw new Error('no projects');
    // In bulk through the seeder (batched transactions), each thread on its own project.
    await seed({
      dataDir,
      users: 3,
      projects: 0,
      comments: SMALL,
      commentsOn: [smallId],
      emailPrefix: 'thread.user',
    });
    const { timings } = await seed({
      dataDir,
      users: 3,
      projects: 0,
      comments: LARGE,
      commentsOn: [largeId],
      emailPrefix: 'thread.user',
    });
    context.log(`seeded ${LARGE} comments on one project in ${fmt(timings.commentsMs, 0)} ms`);
    const [reader, writer] = base.users.map((user): Session => ({
      uid: user.uid,
      email: user.email,
      cookie: `dojo_session=${user.sessionToken}`,
      idToken: '',
    }));
    if (!reader || !writer) throw new Error('no users');

    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    try {
      const bytes = { small: [] as number[], large: [] as number[] };
      const open = { small: [] as number[], large: [] as number[] };
      let probe = 0;
      for (let run = 0; run < context.runs; run += 1) {
        const opener = await openLive(server.url, reader);
        try {
          // Warm-up: the first opens of a socket pay for its first statements.
          await openTimes(opener, [smallId, largeId]);
          const [smallOpens = [], largeOpens = []] = await openTimes(opener, [smallId, largeId]);
          open.small.push(median(smallOpens));
          open.large.push(median(largeOpens));
        } finally {
          opener.close();
        }
        for (const [size, projectId] of [
          ['small', smallId],
          ['large', largeId],
        ] as const) {
          const live = await openLive(server.url, reader);
          try {
            await live.subscribe('thread', projectCommentsQuery(projectId, COMMENTS_PAGE_SIZE));
            const perComment: number[] = [];
            for (let index = 0; index < NEW_COMMENTS; index += 1) {
              probe += 1;
              perComment.push(await bytesForNewComment(server.url, writer, live, projectId, probe));
            }
            bytes[size].push(median(perComment));
          } finally {
            live.close();
          }
        }
        context.log(
          `run ${run + 1}: bytes per new comment ${bytes.small.at(-1)} (10) vs ${bytes.large.at(-1)} (10,000); ` +
            `open ${fmt(open.small.at(-1), 2)} ms vs ${fmt(open.large.at(-1), 2)} ms`,
        );
      }
      const bytesRatio = bytes.small.map((small, index) => (bytes.large[index] ?? NaN) / small);
      const openRatio = open.small.map((small, index) => (open.large[index] ?? NaN) / small);
      return {
        status: 'ok',
        method: [
          `Two projects seeded in bulk (bench/lib/seeder.ts, batched): one with ${SMALL} comments, one with ` +
            `${fmt(LARGE, 0)}. SQLite, the compiled server.`,
          `Bytes per new comment: a subscriber follows the project's newest comments (the live \`comments\` ` +
            `query of the project page, ${COMMENTS_PAGE_SIZE} a page); another user posts a ` +
            `${COMMENT.length}-character comment; every WebSocket byte the subscriber receives for it is ` +
            `counted (until a probe subscription's snapshot, which the serial live queue sends after the ` +
            `fan-out). Each measured comment is deleted afterwards, so the threads stay at their size. ` +
            `Median of ${NEW_COMMENTS} comments per run. On the full page of the long thread the ` +
            'message also names the comment that leaves the page (a `removed` entry of ~50 bytes).',
          `Open: from subscribing to the project's newest comments to their snapshot, a fresh query each time ` +
            `(the subscription is dropped between opens, so no result is shared), the two projects in turn on ` +
            `one socket; median of ${OPENS} each after ${OPENS} warm-up rounds.`,
        ],
        figures: [
          figure('thread.bytes.10', 'bytes per new comment, 10-comment thread', 'B', bytes.small, 0),
          figure('thread.bytes.10000', 'bytes per new comment, 10,000-comment thread', 'B', bytes.large, 0),
          figure('thread.bytes.ratio', 'bytes per new comment, 10,000 vs 10', '×', bytesRatio, 3),
          figure('thread.open.10', 'open (newest comments snapshot), 10 comments', 'ms', open.small, 2),
          figure(
            'thread.open.10000',
            'open (newest comments snapshot), 10,000 comments',
            'ms',
            open.large,
            2,
          ),
          figure('thread.open.ratio', 'open, 10,000 vs 10', '×', openRatio, 2),
        ],
      };
    } finally {
      await server.stop();
    }
  },
};

import path from 'node:path';
import { sql } from 'kysely';
import pMap from 'p-map';
import { UNREAD_COUNT_CAP, unreadNotificationsCountQuery } from '../src/common';
import { loadConfig } from '../src/server/config/config';
import { openDatabase } from '../src/server/db/database';
import { newId } from '../src/server/core/ids';
import { closeAll, httpRequest, openLive, type LiveSocket, type Session } from './lib/clients';
import { seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt, percentile } from './lib/stats';
import type { Benchmark } from './lib/types';

const ASSIGNEES = 1000;
const COMMENTS_PER_RUN = 20;
const PAGE_READS = 200;
const LARGE_INBOX = 1_000_000;
const SMALL_INBOX = 1000;
const GAP_MS = 100;
/**
 * Unread among each seeded inbox: with the comments of every run, still under UNREAD_COUNT_CAP, so every
 * comment changes all 1,000 bells (a bell already at the cap shows "99+" and gets no frame).
 */
const SEEDED_UNREAD = 20;

/**
 * Writes what no API can: a project with `assignees` assignees (the API caps a project at MAX_ASSIGNEES),
 * and two members' stored notifications, generated in SQL (a recursive series), before the server starts.
 */
async function seedInSql(
  dataDir: string,
  creatorId: string,
  assigneeIds: readonly string[],
  inboxes: { userId: string; rows: number }[],
): Promise<string> {
  const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  const { db } = database;
  const projectId = newId();
  const now = new Date().toISOString();
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('projects')
        .values({
          id: projectId,
          name: 'A thousand people',
          details: 'Everyone is on it.',
          due_date: '2030-01-01',
          category: 'development',
          created_by: creatorId,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const rows = assigneeIds.map((userId, position) => ({
        project_id: projectId,
        user_id: userId,
        position,
      }));
      for (let start = 0; start < rows.length; start += 500) {
        await trx
          .insertInto('project_assignees')
          .values(rows.slice(start, start + 500))
          .execute();
      }
    });
    for (const inbox of inboxes) {
      // A portable series (SQLite and PostgreSQL): one INSERT … SELECT per 100,000 rows.
      for (let done = 0; done < inbox.rows; done += 100_000) {
        const count = Math.min(100_000, inbox.rows - done);
        await sql`
          with recursive series(n) as (select 1 union all select n + 1 from series where n < ${count})
          insert into notifications (id, user_id, kind, project_id, actor_id, created_at, read_at)
          select ${`${inbox.userId.slice(0, 8)}-${done}-`} || n, ${inbox.userId}, 'commented', ${projectId},
                 ${creatorId}, ${now}, case when ${done} + n > ${SEEDED_UNREAD} then ${now} else null end
          from series`.execute(db);
      }
    }
  } finally {
    await database.close();
  }
  return projectId;
}

export const notifications: Benchmark = {
  id: 'notifications',
  title: 'Notifications: a comment on a project with 1,000 assignees; the panel at 1,000,000 stored',
  async run(context) {
    const assignees = context.quick ? 100 : ASSIGNEES;
    const commentsPerRun = context.quick ? 5 : COMMENTS_PER_RUN;
    const largeInbox = context.quick ? 20_000 : LARGE_INBOX;
    const pageReads = context.quick ? 50 : PAGE_READS;
    if (SEEDED_UNREAD + context.runs * commentsPerRun >= UNREAD_COUNT_CAP) {
      throw new Error('the seeded inboxes would reach the unread cap: their bells would stop changing');
    }
    const dataDir = path.join(context.tmpDir, 'data');
    const { users } = await seed({ dataDir, users: assignees + 1, projects: 0, comments: 0 });
    const sessions = users.map((user): Session => ({
      uid: user.uid,
      email: user.email,
      cookie: `dojo_session=${user.sessionToken}`,
      idToken: '',
    }));
    const [creator, ...onIt] = sessions;
    const large = onIt[0];
    const small = onIt[1];
    if (!creator || !large || !small) throw new Error('no users');
    const started = performance.now();
    const projectId = await seedInSql(
      dataDir,
      creator.uid,
      onIt.map((session) => session.uid),
      [
        { userId: large.uid, rows: largeInbox },
        { userId: small.uid, rows: SMALL_INBOX },
      ],
    );
    context.log(
      `seeded ${assignees} assignees and ${largeInbox + SMALL_INBOX} notifications in ${fmt(performance.now() - started, 0)} ms`,
    );

    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    let sockets: LiveSocket[] = [];
    try {
      sockets = await pMap(
        onIt,
        async (session) => {
          const live = await openLive(server.url, session);
          await live.subscribe('bell', unreadNotificationsCountQuery(session.uid));
          return live;
        },
        { concurrency: 50 },
      );

      const commentMs: number[][] = [];
      const deliveredMs: number[][] = [];
      let missed = 0;
      for (let run = 0; run < context.runs; run += 1) {
        const answers: number[] = [];
        const deliveries: number[] = [];
        for (let index = 0; index < commentsPerRun; index += 1) {
          let received = 0;
          let last = 0;
          let allReceived: () => void = () => undefined;
          const everyone = new Promise<boolean>((resolve) => {
            allReceived = () => resolve(true);
            setTimeout(() => resolve(false), 15_000).unref();
          });
          const seen = new Uint8Array(sockets.length);
          let sent = 0;
          const listeners = sockets.map((live, socketIndex) => {
            const listener = (data: Buffer) => {
              if (seen[socketIndex] || data.indexOf('"changes"') === -1) return;
              seen[socketIndex] = 1;
              received += 1;
              last = performance.now() - sent;
              if (received === sockets.length) allReceived();
            };
            live.socket.on('message', listener);
            return listener;
          });
          sent = performance.now();
          const response = await httpRequest(`${server.url}/api/projects/${projectId}/comments`, {
            method: 'POST',
            headers: { cookie: creator.cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `Hello everyone, ${run}.${index}` }),
          });
          answers.push(performance.now() - sent);
          if (response.status !== 201)
            throw new Error(`comment → ${response.status}: ${response.body.toString()}`);
          if (await everyone) deliveries.push(last);
          else missed += sockets.length - received;
          sockets.forEach((live, socketIndex) => live.socket.off('message', listeners[socketIndex]!));
          await new Promise((resolve) => setTimeout(resolve, GAP_MS));
        }
        commentMs.push(answers);
        deliveredMs.push(deliveries);
      }

      const pageMs = async (session: Session): Promise<number[]> => {
        const times: number[] = [];
        for (let index = 0; index < pageReads; index += 1) {
          const begun = performance.now();
          const response = await httpRequest(`${server.url}/api/notifications?limit=20`, {
            method: 'GET',
            headers: { cookie: session.cookie },
          });
          times.push(performance.now() - begun);
          if (response.status !== 200) throw new Error(`page → ${response.status}`);
        }
        return times;
      };
      const largeP50: number[] = [];
      const smallP50: number[] = [];
      const ratio: number[] = [];
      // Warm both members' rows and the statement cache first: the figure compares steady reads.
      await pageMs(small);
      await pageMs(large);
      for (let run = 0; run < context.runs; run += 1) {
        const smallTimes = await pageMs(small);
        const largeTimes = await pageMs(large);
        smallP50.push(percentile(smallTimes, 50));
        largeP50.push(percentile(largeTimes, 50));
        ratio.push(percentile(largeTimes, 50) / percentile(smallTimes, 50));
      }

      return {
        status: missed === 0 ? 'ok' : 'failed',
        ...(missed === 0 ? {} : { error: `${missed} unread counts never arrived` }),
        method: [
          `One server (SQLite), ${assignees} members assigned to one project (written in SQL: the API caps a project at 50 assignees), each with one live socket following their unread count. The creator adds ${commentsPerRun} comments per run, ${GAP_MS} ms apart; more recipients than the server writes inline (\`INLINE_RECIPIENTS_MAX\`), so the comment's transaction queues one job and answers; right after the answer the job's own transaction writes one notification per assignee (one multi-row INSERT) and publishes their bells (docs/decisions/034-queued-notifications.md). Each bell counts unread notifications up to \`UNREAD_COUNT_CAP\` (${UNREAD_COUNT_CAP}).`,
          `Delivery: from sending the comment to the last socket receiving its new count. Panel: \`GET /api/notifications?limit=20\` ${pageReads} times for a member with ${largeInbox.toLocaleString('en-US')} stored notifications and for one with ${SMALL_INBOX.toLocaleString('en-US')} (${SEEDED_UNREAD} of each unread, so every comment still changes every bell).`,
        ],
        figures: [
          figure(
            'notifications.comment.p99',
            'comment answer, p99',
            'ms',
            commentMs.map((times) => percentile(times, 99)),
          ),
          figure(
            'notifications.delivery.p50',
            'comment → every unread count, p50',
            'ms',
            deliveredMs.map((times) => percentile(times, 50)),
          ),
          figure(
            'notifications.delivery.p99',
            'comment → every unread count, p99',
            'ms',
            deliveredMs.map((times) => percentile(times, 99)),
          ),
          figure(
            'notifications.page.small',
            `first page at ${SMALL_INBOX.toLocaleString('en-US')} stored, p50`,
            'ms',
            smallP50,
            2,
          ),
          figure(
            'notifications.page.large',
            `first page at ${largeInbox.toLocaleString('en-US')} stored, p50`,
            'ms',
            largeP50,
            2,
          ),
          figure('notifications.page.ratio', 'first page, large ÷ small', '×', ratio, 2),
        ],
      };
    } finally {
      await closeAll(sockets);
      await server.stop();
    }
  },
};

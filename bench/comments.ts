import path from 'node:path';
import { COMMENTS_PAGE_MAX, type Comment, type CommentPage, type Project } from '../src/common';
import { api, httpRequest, signUpMany, type Session } from './lib/clients';
import { seed } from './lib/seeder';
import { startServer } from './lib/server-process';
import { figure, fmt } from './lib/stats';
import type { Benchmark } from './lib/types';

const CLIENTS = 50;
const PER_CLIENT = 20;

/** Every comment of a project in commit order, read back page by page (the API serves newest first). */
async function allComments(baseUrl: string, session: Session, projectId: string): Promise<Comment[]> {
  const comments: Comment[] = [];
  let before: string | null = null;
  do {
    const query: string = `limit=${COMMENTS_PAGE_MAX}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
    const page: CommentPage = await api<CommentPage>(
      baseUrl,
      session,
      'GET',
      `/api/projects/${projectId}/comments?${query}`,
    );
    comments.unshift(...page.comments.toReversed());
    before = page.nextCursor;
  } while (before !== null);
  return comments;
}

export const comments: Benchmark = {
  id: 'comments',
  title: 'Concurrent comments: 50 clients × 20 on one project',
  async run(context) {
    const dataDir = path.join(context.tmpDir, 'data');
    await seed({ dataDir, users: 30, projects: 200, comments: 0 });
    const server = await startServer({ dataDir, cpuProfDir: context.cpuProfDir });
    try {
      const sessions = await signUpMany(server.url, CLIENTS, 'comments');
      const owner = sessions[0];
      if (!owner) throw new Error('no session');
      const kept: number[] = [];
      const inOrder: number[] = [];
      const wall: number[] = [];
      const failed: number[] = [];
      for (let run = 0; run < context.runs; run += 1) {
        const { project } = await api<{ project: Project }>(server.url, owner, 'POST', '/api/projects', {
          name: `Busy project ${run + 1}`,
          details: 'Everyone comments at once.',
          dueDate: '2030-01-01',
          category: 'design',
          assignedUserIds: sessions.slice(0, 4).map((session) => session.uid),
        });
        const tag = `r${run}`;
        let errors = 0;
        const started = performance.now();
        await Promise.all(
          sessions.map(async (session, client) => {
            for (let index = 0; index < PER_CLIENT; index += 1) {
              const response = await httpRequest(`${server.url}/api/projects/${project.id}/comments`, {
                method: 'POST',
                headers: { cookie: session.cookie, 'content-type': 'application/json' },
                body: JSON.stringify({ content: `${tag} client ${client} comment ${index}` }),
              });
              if (response.status !== 201) errors += 1;
            }
          }),
        );
        const elapsed = performance.now() - started;
        const stored = await allComments(server.url, owner, project.id);
        const ours = stored.filter((comment) => comment.content.startsWith(`${tag} `));
        let ordered = 0;
        for (let client = 0; client < CLIENTS; client += 1) {
          const own = ours
            .filter((comment) => comment.content.startsWith(`${tag} client ${client} `))
            .map((comment) => comment.content);
          const expected = Array.from(
            { length: PER_CLIENT },
            (_, index) => `${tag} client ${client} comment ${index}`,
          );
          if (own.length === PER_CLIENT && own.every((content, index) => content === expected[index]))
            ordered += 1;
        }
        kept.push(ours.length);
        inOrder.push(ordered);
        wall.push(elapsed);
        failed.push(errors);
        context.log(
          `run ${run + 1}: ${ours.length} kept, ${ordered}/${CLIENTS} in order, ${fmt(elapsed, 0)} ms`,
        );
      }
      return {
        status: 'ok',
        method: [
          `${CLIENTS} signed-up users, each its own session and keep-alive connection, all at once; each sends ` +
            `${PER_CLIENT} comments to the same project, one after another (the next when the previous was ` +
            'answered) through `POST /api/projects/{id}/comments`. Then the project is read back and every ' +
            'client’s comments are checked to be all there and in the order that client sent them.',
          'Wall time: from the first request to the last answer.',
        ],
        figures: [
          figure('comments.kept', 'comments kept (of 1,000)', '', kept, 0),
          figure(
            'comments.inOrder',
            'clients whose comments are all there in their order (of 50)',
            '',
            inOrder,
            0,
          ),
          figure('comments.wall', 'wall time', 'ms', wall, 0),
          figure('comments.failed', 'requests not answered 201', '', failed, 0),
        ],
      };
    } finally {
      await server.stop();
    }
  },
};

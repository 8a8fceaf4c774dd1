import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  COMMENT_MAX_LENGTH,
  COMMENTS_PAGE_SIZE,
  messages,
  projectCommentsQuery,
  type CommentPage,
  type LiveServerMessage,
  type Project,
} from '../../common';
import { useTestTeam } from '../../../test/support/test-team';
import { createProjectAs } from '../../../test/support/clients';
import { largeComment, postLargeComments } from '../../../test/support/fixtures';

const team = useTestTeam({ mario: 'mario' });

let cookie: string;

beforeAll(() => {
  cookie = team.mario.client.transport.cookieHeader() ?? '';
});

const newProject = (name: string): Promise<Project> =>
  createProjectAs(team.mario, { name, details: 'Comments, many of them.' });

/** Adds comments in order (each answered before the next is sent), returning their ids oldest first. */
async function addComments(projectId: string, contents: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const content of contents)
    ids.push((await team.mario.client.projects.addComment(projectId, { content })).id);
  return ids;
}

async function getPage(projectId: string, query: string) {
  const response = await fetch(`${team.server.url}/api/projects/${projectId}/comments${query}`, {
    headers: { cookie },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('comments over HTTP', () => {
  it('pages newest first with a cursor until the oldest, each comment exactly once', async () => {
    const project = await newProject('Paged');
    const ids = await addComments(
      project.id,
      Array.from({ length: 45 }, (_, index) => `comment ${index}`),
    );
    const seen: string[] = [];
    const sizes: number[] = [];
    let before: string | null = null;
    do {
      const page: CommentPage = await team.mario.client.projects.listComments(project.id, {
        before,
        limit: 20,
      });
      sizes.push(page.comments.length);
      seen.push(...page.comments.map((comment) => comment.id));
      before = page.nextCursor;
    } while (before !== null);
    expect(sizes).toEqual([20, 20, 5]);
    expect(seen).toEqual(ids.toReversed());
    // The default page is the live page's size.
    expect((await team.mario.client.projects.listComments(project.id)).comments).toHaveLength(
      COMMENTS_PAGE_SIZE,
    );
  });

  it('answers 404 for a missing project and 400 for a bad cursor or page size', async () => {
    const project = await newProject('Cursor checks');
    const [other] = await addComments((await newProject('Elsewhere')).id, ['not this project']);
    expect((await getPage('nope', '')).status).toBe(404);
    const foreignCursor = await getPage(project.id, `?before=${other}`);
    expect(foreignCursor.status).toBe(400);
    expect(foreignCursor.body).toMatchObject({
      error: { code: 'invalid-argument', fields: { before: messages.commentCursorInvalid } },
    });
    expect((await getPage(project.id, '?limit=101')).status).toBe(400);
    expect((await getPage(project.id, '?limit=0')).status).toBe(400);
  });
});

describe('comments live', () => {
  it('sends a subscriber of a project with 150 large comments one comment per new comment, not the project', async () => {
    const project = await newProject('Long thread');
    // Made in parallel: their order does not matter here, only their size.
    await postLargeComments(team.server.url, project.id, 150, cookie);

    const socket = new WebSocket(`${team.server.url.replace(/^http/, 'ws')}/live`, { headers: { cookie } });
    const messagesReceived: { bytes: number; message: LiveServerMessage }[] = [];
    socket.on('message', (data: Buffer) =>
      messagesReceived.push({ bytes: data.length, message: JSON.parse(String(data)) as LiveServerMessage }),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    // What the project page follows: the project and its newest comments.
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id: 'project',
        target: { kind: 'doc', collection: 'projects', id: project.id },
      }),
    );
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id: 'comments',
        target: projectCommentsQuery(project.id, COMMENTS_PAGE_SIZE),
      }),
    );
    const snapshots = () => messagesReceived.filter(({ message }) => message.type === 'snapshot').length;
    await expect.poll(snapshots).toBe(2);
    const afterSnapshots = messagesReceived.length;

    const comment = await team.mario.client.projects.addComment(project.id, { content: largeComment(150) });
    await expect
      .poll(() => messagesReceived.slice(afterSnapshots).some(({ message }) => message.type === 'changes'))
      .toBe(true);
    // Anything else the comment caused would have been sent before or with it; give a project re-send
    // (the old behaviour) the chance to arrive by making one more round trip on the same socket.
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id: 'probe',
        target: { kind: 'doc', collection: 'projects', id: 'none' },
      }),
    );
    await expect
      .poll(() =>
        messagesReceived.some(({ message }) => message.type === 'snapshot' && message.id === 'probe'),
      )
      .toBe(true);

    const after = messagesReceived
      .slice(afterSnapshots)
      .filter(({ message }) => !('id' in message && message.id === 'probe'));
    const bytes = after.reduce((sum, { bytes }) => sum + bytes, 0);
    expect(bytes).toBeGreaterThan(COMMENT_MAX_LENGTH);
    expect(bytes).toBeLessThan(2 * COMMENT_MAX_LENGTH);
    expect(after.map(({ message }) => message)).toEqual([
      {
        type: 'changes',
        id: 'comments',
        changes: [
          // The oldest of the page leaves it; the new one comes in at the top.
          { type: 'removed', doc: { id: expect.any(String) } },
          { type: 'added', doc: comment, newIndex: 0 },
        ],
      },
    ]);
    socket.close();
  });
});

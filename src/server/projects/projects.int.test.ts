import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMMENT_MAX_LENGTH,
  COMMENTS_PAGE_MAX,
  dashboardQuery,
  messages,
  projectCommentsQuery,
  type Comment,
  type CommentPage,
  type CreateProjectInput,
  type LiveServerMessage,
  type Project,
} from '../../common';
import { WebSocket, type ClientOptions } from 'ws';
import { createDojoClient, type WebSocketConstructor } from '../../sdk';
import { useTestTeam } from '../../../test/support/test-team';
import { dashboardsOf, LiveRecorder, tomorrow, type SignedInClient } from '../../../test/support/clients';
import { postJson } from '../../../test/support/fixtures';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';

const team = useTestTeam({ mario: 'mario', luigi: 'luigi' });

const validProject = (
  assignedUserIds: string[],
  overrides: Partial<CreateProjectInput> = {},
): CreateProjectInput => ({
  name: 'Create new website',
  details: 'Landing page, pricing and blog.',
  dueDate: tomorrow(),
  category: 'development',
  assignedUserIds,
  ...overrides,
});

// Response bodies are checked field by field; their shape varies by route.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ApiBody = Record<string, any>;

async function api(client: SignedInClient | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = {};
  const cookie = client?.client.transport.cookieHeader();
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${team.server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as ApiBody) : undefined };
}

describe('signed out', () => {
  it.each([
    ['GET', '/api/projects'],
    ['POST', '/api/projects'],
    ['GET', '/api/projects/x'],
    ['DELETE', '/api/projects/x'],
    ['POST', '/api/projects/x/comments'],
  ])('%s %s answers 401', async (method, path) => {
    const response = await api(null, method, path, method === 'POST' ? {} : undefined);
    expect(response.status).toBe(401);
    expect(response.body?.error.code).toBe('unauthenticated');
  });
});

describe('POST /api/projects', () => {
  it('names every missing field with the spec messages and creates nothing', async () => {
    const before = (await api(team.mario, 'GET', '/api/projects')).body?.projects.length;
    const response = await api(team.mario, 'POST', '/api/projects', {});
    expect(response.status).toBe(400);
    expect(response.body?.error.fields).toEqual({
      name: messages.projectNameRequired,
      details: messages.projectDetailsRequired,
      dueDate: messages.dueDateRequired,
      category: messages.categoryRequired,
      assignedUserIds: messages.assigneesRequired,
    });
    expect((await api(team.mario, 'GET', '/api/projects')).body?.projects.length).toBe(before);
  });

  it.each([
    ['an unknown category', { category: 'cooking' }, 'category', messages.categoryRequired],
    ['no assignees', { assignedUserIds: [] }, 'assignedUserIds', messages.assigneesRequired],
    ['an impossible date', { dueDate: '2026-02-30' }, 'dueDate', messages.dueDateInvalid],
    ['a blank name', { name: '   ' }, 'name', messages.projectNameRequired],
  ])('refuses %s', async (_label, overrides, field, message) => {
    const response = await api(team.mario, 'POST', '/api/projects', {
      ...validProject([team.mario.user.uid]),
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(response.body?.error.fields[field]).toBe(message);
  });

  it('refuses unknown user ids, and writes nothing', async () => {
    const name = `Unknown assignee ${Date.now()}`;
    const response = await api(
      team.mario,
      'POST',
      '/api/projects',
      validProject([team.mario.user.uid, 'no-such-user'], { name }),
    );
    expect(response.status).toBe(400);
    expect(response.body?.error.fields.assignedUserIds).toBe(messages.unknownAssignee);
    const named = async () =>
      ((await api(team.mario, 'GET', '/api/projects?limit=1000')).body?.projects ?? []).filter(
        (project: { name: string }) => project.name === name,
      ).length;
    expect(await named()).toBe(0);
    // The same project with known assignees only is written, and listed.
    expect(
      (await api(team.mario, 'POST', '/api/projects', validProject([team.mario.user.uid], { name }))).status,
    ).toBe(201);
    expect(await named()).toBe(1);
  });

  it('creates the project with createdBy from the session (never the body) and a server timestamp', async () => {
    const before = Date.now();
    const response = await api(
      team.mario,
      'POST',
      '/api/projects',
      Object.assign(validProject([team.luigi.user.uid, team.mario.user.uid], { name: '  Trimmed name  ' }), {
        createdBy: { id: team.luigi.user.uid, displayName: 'luigi', photoURL: '' },
        createdAt: '2000-01-01T00:00:00.000Z',
      }),
    );
    expect(response.status).toBe(201);
    const project = response.body?.project as Project;
    expect(project.name).toBe('Trimmed name');
    expect(project.createdBy).toEqual({
      id: team.mario.user.uid,
      displayName: 'mario',
      photoURL: team.mario.user.photoURL,
    });
    expect(Date.parse(project.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(project.assignedUsersList.map((user) => user.displayName)).toEqual(['luigi', 'mario']);
    expect(project.dueDate).toBe(tomorrow());
    // Comments are read apart, a page at a time: the project never embeds them.
    expect(project).not.toHaveProperty('comments');
    // The create answer is built without reading back; it must equal what a read returns.
    expect((await api(team.mario, 'GET', `/api/projects/${project.id}`)).body?.project).toEqual(project);
  });

  it('refuses a create posted from another site', async () => {
    const response = await fetch(`${team.server.url}/api/projects`, {
      method: 'POST',
      headers: {
        cookie: team.mario.client.transport.cookieHeader() ?? '',
        origin: 'https://evil.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify(validProject([team.mario.user.uid])),
    });
    expect(response.status).toBe(403);
  });
});

describe('GET /api/projects', () => {
  it('never serves a stale list: creates and completions show on the next read', async () => {
    const ids = async (query = '') =>
      ((await api(team.luigi, 'GET', `/api/projects${query}`)).body?.projects as Project[]).map((p) => p.id);
    const before = await ids();
    expect(await ids()).toEqual(before); // a repeated read (served from cache) is identical
    const project = await team.mario.client.projects.create(
      validProject([team.luigi.user.uid], { category: 'marketing' }),
    );
    expect((await ids())[0]).toBe(project.id);
    expect(await ids('?category=marketing')).toContain(project.id);
    expect(await ids('?category=sales')).not.toContain(project.id);
    expect(await ids(`?assignedTo=${team.luigi.user.uid}`)).toContain(project.id);
    await team.mario.client.projects.complete(project.id);
    expect(await ids()).toEqual(before);
    expect(await ids('?category=marketing')).not.toContain(project.id);
  });

  it('refuses a bad filter with 400', async () => {
    const response = await api(team.luigi, 'GET', '/api/projects?category=cooking&limit=5000');
    expect(response.status).toBe(400);
    expect(Object.keys(response.body?.error.fields ?? {}).sort()).toEqual(['category', 'limit']);
  });
});

describe('live dashboard', () => {
  it('sends a snapshot, then each new project to every matching filter, filtered on the server', async () => {
    const { all, mine, design } = await dashboardsOf(team.luigi, ['all', 'mine', 'design']);

    const forLuigi = await team.mario.client.projects.create(
      validProject([team.luigi.user.uid], { name: 'For luigi', category: 'design' }),
    );
    const notForLuigi = await team.mario.client.projects.create(
      validProject([team.mario.user.uid], { name: 'Not for luigi', category: 'sales' }),
    );

    const allDocs = await all.until(
      (docs) => docs.some((p) => p.id === notForLuigi.id),
      WAIT_MS,
      'both projects in all',
    );
    expect(allDocs[0]?.id).toBe(notForLuigi.id); // newest first
    expect(allDocs[1]?.id).toBe(forLuigi.id);
    await mine.until((docs) => docs.some((p) => p.id === forLuigi.id));
    await design.until((docs) => docs.some((p) => p.id === forLuigi.id));
    expect(mine.docs?.some((p) => p.id === notForLuigi.id)).toBe(false);
    expect(design.docs?.every((p) => p.category === 'design')).toBe(true);
    expect(allDocs.every((p) => !Object.hasOwn(p, 'comments'))).toBe(true);
    [all, mine, design].forEach((recorder) => recorder.unsubscribe());
  });

  it('keeps subscribers of one query in step, whenever they joined', async () => {
    const query = dashboardQuery('development', team.luigi.user.uid, 5);
    const early = new LiveRecorder<Project>(team.luigi.client, query);
    await early.until(() => true);
    const first = await team.mario.client.projects.create(
      validProject([team.mario.user.uid], { name: 'Step 1' }),
    );
    await early.until((docs) => docs[0]?.id === first.id);
    const late = new LiveRecorder<Project>(team.mario.client, query);
    await late.until((docs) => docs[0]?.id === first.id);
    const made = [];
    for (let index = 2; index <= 7; index += 1) {
      made.push(
        await team.mario.client.projects.create(
          validProject([team.mario.user.uid], { name: `Step ${index}` }),
        ),
      );
    }
    await team.mario.client.projects.complete(made[5]!.id);
    const expected = (
      (await api(team.luigi, 'GET', '/api/projects?category=development&limit=5')).body?.projects as Project[]
    ).map((p) => p.id);
    expect(expected[0]).toBe(made[4]!.id);
    const ids = (docs: Project[]) => docs.map((p) => p.id).join();
    await early.until((docs) => ids(docs) === expected.join(), WAIT_MS, 'early subscriber in step');
    await late.until((docs) => ids(docs) === expected.join(), WAIT_MS, 'late subscriber in step');
    early.unsubscribe();
    late.unsubscribe();
  });

  it('refuses a live query on an unknown field', async () => {
    const recorder = new LiveRecorder(team.luigi.client, {
      kind: 'query',
      collection: 'projects',
      where: [{ field: 'details', op: '==', value: 'x' }],
    });
    await expect.poll(() => recorder.error?.message, { timeout: 5000 }).toBe(messages.badRequest);
  });
});

describe('DELETE /api/projects/:id (Mark as Complete)', () => {
  it('answers 404 for a missing project', async () => {
    const response = await api(team.mario, 'DELETE', '/api/projects/nope');
    expect(response.status).toBe(404);
    expect(response.body?.error.message).toBe(messages.noSuchDocument);
  });

  it('refuses anyone but the creator with 403 and keeps the project', async () => {
    const project = await team.mario.client.projects.create(validProject([team.luigi.user.uid]));
    const response = await api(team.luigi, 'DELETE', `/api/projects/${project.id}`);
    expect(response.status).toBe(403);
    expect(response.body?.error.message).toBe(messages.onlyCreatorCompletes);
    expect((await api(team.luigi, 'GET', `/api/projects/${project.id}`)).status).toBe(200);
  });

  it('lets the creator complete it, and removes it live from lists and open pages', async () => {
    const project = await team.mario.client.projects.create(validProject([team.luigi.user.uid]));
    const list = new LiveRecorder<Project>(team.luigi.client, dashboardQuery('all', team.luigi.user.uid, 50));
    const page = new LiveRecorder<Project>(team.luigi.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    await list.until((docs) => docs.some((p) => p.id === project.id));
    await page.until((docs) => docs.length === 1);

    await team.mario.client.projects.complete(project.id);
    await list.until((docs) => !docs.some((p) => p.id === project.id), WAIT_MS, 'removal from the list');
    await page.until((docs) => docs.length === 0, WAIT_MS, 'removal of the open document');
    expect((await api(team.mario, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
    list.unsubscribe();
    page.unsubscribe();
  });
});

describe('comments', () => {
  let project: Project;
  beforeAll(async () => {
    project = await team.mario.client.projects.create(
      validProject([team.mario.user.uid, team.luigi.user.uid], { name: 'Commented' }),
    );
  });

  it.each([
    ['empty', '', messages.commentRequired],
    ['whitespace only', '  \n\t ', messages.commentRequired],
    ['over 10000 characters', 'x'.repeat(COMMENT_MAX_LENGTH + 1), messages.commentTooLong],
  ])('refuses an %s comment and stores nothing', async (_label, content, message) => {
    const response = await api(team.luigi, 'POST', `/api/projects/${project.id}/comments`, { content });
    expect(response.status).toBe(400);
    expect(response.body?.error.fields.content).toBe(message);
    expect((await api(team.luigi, 'GET', `/api/projects/${project.id}/comments`)).body?.comments).toEqual([]);
  });

  it('never serves a stale project: a completion shows on the next read of it', async () => {
    const project = await team.mario.client.projects.create(validProject([team.luigi.user.uid]));
    // Read twice, so the second read may come from the server's cache.
    for (let read = 0; read < 2; read += 1) {
      const response = await api(team.luigi, 'GET', `/api/projects/${project.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ project });
    }
    await team.mario.client.projects.complete(project.id);
    expect((await api(team.luigi, 'GET', `/api/projects/${project.id}`)).status).toBe(404);
  });

  it('answers 404 for a comment on a missing project', async () => {
    expect((await api(team.luigi, 'POST', '/api/projects/nope/comments', { content: 'hi' })).status).toBe(
      404,
    );
  });

  it('adds a comment from the session user, kept as plain text, live on an open page', async () => {
    const page = new LiveRecorder<Comment>(team.mario.client, projectCommentsQuery(project.id, 20));
    await page.until(() => true);
    const content = '<img src=x onerror=alert(1)> I can take the landing page.';
    const comment = await team.luigi.client.projects.addComment(project.id, { content });
    expect(comment).toMatchObject({
      authorId: team.luigi.user.uid,
      displayName: 'luigi',
      content,
      projectId: project.id,
    });
    const [live] = await page.until((docs) => docs.length === 1, WAIT_MS, 'the comment');
    expect(live).toEqual(comment);
    const exactlyMax = await api(team.luigi, 'POST', `/api/projects/${project.id}/comments`, {
      content: 'y'.repeat(COMMENT_MAX_LENGTH),
    });
    expect(exactlyMax.status).toBe(201);
    page.unsubscribe();
  });
});

describe('concurrent comments', () => {
  it('keeps all 1,000 comments of 50 clients × 20, each client in its own order', async () => {
    const project = await team.mario.client.projects.create(
      validProject([team.mario.user.uid], { name: 'Busy project' }),
    );
    const cookie = team.mario.client.transport.cookieHeader() ?? '';
    const clients = Array.from({ length: 50 }, (_, client) => client);
    await Promise.all(
      clients.map(async (client) => {
        for (let index = 0; index < 20; index += 1) {
          const response = await postJson(
            team.server.url,
            `/api/projects/${project.id}/comments`,
            { content: `c${client}-${index}` },
            { cookie },
          );
          expect(response.status).toBe(201);
        }
      }),
    );
    // Newest first, page by page; reversed, they are in commit order.
    const comments: Comment[] = [];
    let before: string | null = null;
    do {
      const page: CommentPage = await team.mario.client.projects.listComments(project.id, {
        before,
        limit: COMMENTS_PAGE_MAX,
      });
      comments.unshift(...page.comments.toReversed());
      before = page.nextCursor;
    } while (before !== null);
    expect(comments).toHaveLength(1000);
    for (const client of clients) {
      const own = comments
        .filter((comment) => comment.content.startsWith(`c${client}-`))
        .map((comment) => comment.content);
      expect(own).toEqual(Array.from({ length: 20 }, (_, index) => `c${client}-${index}`));
    }
  }, 120_000);
});

/**
 * The `ws` socket behind a switch: while `down`, a new socket asks for a path the server refuses before the
 * upgrade (as an unreachable server would fail it); `accepted` keeps every socket the server welcomed.
 */
function switchableNetwork() {
  const network = { down: false, accepted: [] as WebSocket[] };
  class SwitchedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[], options?: ClientOptions) {
      super(network.down ? `${url}-unreachable` : url, protocols, options);
      this.on('message', (data) => {
        if ((JSON.parse(String(data)) as LiveServerMessage).type === 'welcome') network.accepted.push(this);
      });
    }
  }
  return { network, WebSocket: SwitchedWebSocket as unknown as WebSocketConstructor };
}

describe('reconnect', () => {
  it('misses no change while the socket is down: resubscribes and gets a fresh snapshot', async () => {
    const { network, WebSocket: SwitchedWebSocket } = switchableNetwork();
    const client = createDojoClient({ baseUrl: team.server.url, WebSocket: SwitchedWebSocket });
    await client.auth.logIn({ email: team.luigi.email, password: team.luigi.password });
    const list = new LiveRecorder<Project>(client, dashboardQuery('all', team.luigi.user.uid, 50));
    await list.until(() => true);
    expect(network.accepted).toHaveLength(1);

    // A real disconnect: the socket the server accepted is closed, and no new one can connect meanwhile.
    network.down = true;
    client.live.dropConnection();
    await pollUntil(
      () => network.accepted[0]?.readyState === WebSocket.CLOSED && client.live.status === 'reconnecting',
      WAIT_MS,
      () => `the socket was not dropped (status ${client.live.status})`,
    );
    const made: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      made.push(
        (
          await team.mario.client.projects.create(
            validProject([team.mario.user.uid], { name: `While away ${index}` }),
          )
        ).id,
      );
    }
    // Nothing arrives on a closed socket: these can only come from the snapshot after the reconnect.
    expect(made.filter((id) => list.docs?.some((p) => p.id === id))).toEqual([]);

    network.down = false;
    await list.until(
      (docs) => made.every((id) => docs.some((p) => p.id === id)),
      WAIT_MS,
      'projects made while disconnected',
    );
    // A real reconnect: a second socket, accepted by the server.
    expect(network.accepted).toHaveLength(2);
    expect(client.live.status).toBe('online');
    list.unsubscribe();
    client.close();
  });
});

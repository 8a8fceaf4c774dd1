import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  COMMENT_MAX_LENGTH,
  COMMENTS_PAGE_SIZE,
  messages,
  projectCommentsQuery,
  type LiveServerMessage,
  type Project,
} from '../../common';
import { useTestTeam } from '../../../test/support/test-team';
import { createProjectAs } from '../../../test/support/clients';
import { postLargeComments } from '../../../test/support/fixtures';

const team = useTestTeam({ mario: 'mario', luigi: 'luigi' });

let marioCookie: string;
let luigiCookie: string;

beforeAll(() => {
  marioCookie = team.mario.client.transport.cookieHeader() ?? '';
  luigiCookie = team.luigi.client.transport.cookieHeader() ?? '';
});

const newProject = (name: string): Promise<Project> =>
  createProjectAs(team.mario, { name, details: 'Comments that change.' });

async function send(
  method: 'PATCH' | 'DELETE',
  path: string,
  cookie: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const response = await fetch(`${team.server.url}${path}`, {
    method,
    headers: {
      cookie,
      origin: team.server.url,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const commentPath = (projectId: string, commentId: string) =>
  `/api/projects/${projectId}/comments/${commentId}`;

async function allComments(projectId: string) {
  return (await team.mario.client.projects.listComments(projectId, { limit: 100 })).comments;
}

describe('editing and deleting comments over HTTP', () => {
  it('lets the author edit (marked with editedAt) and delete their comment', async () => {
    const project = await newProject('Edit and delete');
    const comment = await team.mario.client.projects.addComment(project.id, { content: 'first draft' });
    expect(comment.editedAt).toBeNull();

    const edited = await team.mario.client.projects.editComment(project.id, comment.id, {
      content: 'second draft',
    });
    expect(edited).toMatchObject({
      id: comment.id,
      content: 'second draft',
      createdAt: comment.createdAt,
      authorId: team.mario.user.uid,
    });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect(Date.parse(edited.editedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(comment.createdAt));
    expect(await allComments(project.id)).toEqual([edited]);

    await team.mario.client.projects.deleteComment(project.id, comment.id);
    expect(await allComments(project.id)).toEqual([]);
  });

  it('refuses someone else (403 with its message) and changes nothing', async () => {
    const project = await newProject('Not yours');
    const comment = await team.mario.client.projects.addComment(project.id, { content: "mario's words" });
    const path = commentPath(project.id, comment.id);

    const edit = await send('PATCH', path, luigiCookie, { content: "luigi's words" });
    expect(edit.status).toBe(403);
    expect(edit.body).toMatchObject({
      error: { code: 'forbidden', message: messages.onlyAuthorEditsComment, requestId: expect.any(String) },
    });
    const remove = await send('DELETE', path, luigiCookie);
    expect(remove.status).toBe(403);
    expect(remove.body).toMatchObject({
      error: { code: 'forbidden', message: messages.onlyAuthorDeletesComment, requestId: expect.any(String) },
    });
    expect(await allComments(project.id)).toEqual([comment]);
  });

  it('refuses bad content with the add rules and messages (400) and changes nothing', async () => {
    const project = await newProject('Bad edits');
    const comment = await team.mario.client.projects.addComment(project.id, { content: 'keep me' });
    const path = commentPath(project.id, comment.id);
    for (const [body, message] of [
      [{ content: '   ' }, messages.commentRequired],
      [{ content: 'x'.repeat(COMMENT_MAX_LENGTH + 1) }, messages.commentTooLong],
      [{}, messages.commentRequired],
    ] as const) {
      const answer = await send('PATCH', path, marioCookie, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'invalid-argument', message } });
    }
    expect(await allComments(project.id)).toEqual([comment]);
  });

  it('answers 404 for a missing comment or project, and for a comment of another project', async () => {
    const project = await newProject('Missing');
    const elsewhere = await newProject('Elsewhere');
    const comment = await team.mario.client.projects.addComment(elsewhere.id, { content: 'over there' });
    for (const path of [
      commentPath(project.id, 'no-such-comment'),
      commentPath('no-such-project', comment.id),
      commentPath(project.id, comment.id),
    ]) {
      const edit = await send('PATCH', path, marioCookie, { content: 'hello' });
      expect(edit.status).toBe(404);
      expect(edit.body).toMatchObject({ error: { code: 'not-found' } });
      expect((await send('DELETE', path, marioCookie)).status).toBe(404);
    }
    const missing = await send('DELETE', commentPath(project.id, 'no-such-comment'), marioCookie);
    expect(missing.body).toMatchObject({ error: { message: messages.commentNotFound } });
    // Deleted once, it is missing the second time.
    await team.mario.client.projects.deleteComment(elsewhere.id, comment.id);
    expect((await send('DELETE', commentPath(elsewhere.id, comment.id), marioCookie)).status).toBe(404);
    expect(await allComments(elsewhere.id)).toEqual([]);

    // A completed project's comments stay as they were.
    const kept = await team.mario.client.projects.addComment(project.id, { content: 'kept as it was' });
    await team.mario.client.projects.complete(project.id);
    expect(
      (await send('PATCH', commentPath(project.id, kept.id), marioCookie, { content: 'x' })).status,
    ).toBe(404);
    expect((await send('DELETE', commentPath(project.id, kept.id), marioCookie)).status).toBe(404);
  });
});

const notProbe = ({ message }: { message: LiveServerMessage }) =>
  !('id' in message && message.id?.startsWith('probe-'));

/** A raw live socket recording every message and its size, to see exactly what a change costs. */
async function openRecorder(cookie: string) {
  const socket = new WebSocket(`${team.server.url.replace(/^http/, 'ws')}/live`, { headers: { cookie } });
  const received: { bytes: number; message: LiveServerMessage }[] = [];
  socket.on('message', (data: Buffer) =>
    received.push({ bytes: data.length, message: JSON.parse(String(data)) as LiveServerMessage }),
  );
  await new Promise((resolve) => socket.once('open', resolve));
  let probes = 0;
  /**
   * Waits until everything the server sent before now has arrived: a subscription's snapshot is queued
   * behind any pending change fan-out on the same serial queue, so it arrives after them.
   */
  async function settle() {
    probes += 1;
    const id = `probe-${probes}`;
    socket.send(
      JSON.stringify({
        type: 'subscribe',
        id,
        target: { kind: 'doc', collection: 'projects', id: 'none' },
      }),
    );
    await expect
      .poll(() => received.some(({ message }) => message.type === 'snapshot' && message.id === id))
      .toBe(true);
  }
  return {
    socket,
    received,
    subscribe(id: string, target: unknown) {
      socket.send(JSON.stringify({ type: 'subscribe', id, target }));
    },
    settle,
    /**
     * Does `act`, waits for its change to arrive and for everything sent before then, and answers what
     * `act` returned with what came since it started (probes left out).
     */
    async changesFrom<T>(act: () => Promise<T>) {
      const start = received.length;
      const result = await act();
      await expect
        .poll(() => received.slice(start).some(({ message }) => message.type === 'changes'))
        .toBe(true);
      await settle();
      return { result, after: received.slice(start).filter(notProbe) };
    },
  };
}

describe('comment edits and deletes live', () => {
  it('sends a comments subscriber exactly one modified, then one removed change for the comment', async () => {
    const project = await newProject('Live edits');
    const kept = await team.mario.client.projects.addComment(project.id, { content: 'stays' });
    const comment = await team.mario.client.projects.addComment(project.id, { content: 'before' });
    const recorder = await openRecorder(luigiCookie);
    recorder.subscribe('comments', projectCommentsQuery(project.id, COMMENTS_PAGE_SIZE));
    await recorder.settle();

    const edit = await recorder.changesFrom(() =>
      team.mario.client.projects.editComment(project.id, comment.id, { content: 'after' }),
    );
    expect(edit.after.map(({ message }) => message)).toEqual([
      { type: 'changes', id: 'comments', changes: [{ type: 'modified', doc: edit.result, newIndex: 0 }] },
    ]);

    const removal = await recorder.changesFrom(() =>
      team.mario.client.projects.deleteComment(project.id, comment.id),
    );
    expect(removal.after.map(({ message }) => message)).toEqual([
      { type: 'changes', id: 'comments', changes: [{ type: 'removed', doc: { id: comment.id } }] },
    ]);
    expect((await allComments(project.id)).map((each) => each.id)).toEqual([kept.id]);
    recorder.socket.close();
  });

  it('sends one small change for an edit in a thread of many large comments, and nothing for older ones', async () => {
    const project = await newProject('Long thread edits');
    await postLargeComments(team.server.url, project.id, 120, marioCookie);
    const newest = await team.mario.client.projects.listComments(project.id, {
      limit: COMMENTS_PAGE_SIZE + 1,
    });
    const onPage = newest.comments[3];
    const older = newest.comments[COMMENTS_PAGE_SIZE];
    if (!onPage || !older) throw new Error('expected a full thread');

    const recorder = await openRecorder(luigiCookie);
    recorder.subscribe('comments', projectCommentsQuery(project.id, COMMENTS_PAGE_SIZE));
    await recorder.settle();

    const edit = await recorder.changesFrom(async () => {
      const edited = await team.mario.client.projects.editComment(project.id, onPage.id, {
        content: 'short now',
      });
      // A comment outside the live page changes nothing a subscriber of that page holds.
      await team.mario.client.projects.editComment(project.id, older.id, { content: 'also short' });
      return edited;
    });
    expect(edit.after.map(({ message }) => message)).toEqual([
      { type: 'changes', id: 'comments', changes: [{ type: 'modified', doc: edit.result, newIndex: 3 }] },
    ]);
    expect(edit.after.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThan(1024);

    // Deleting from a full page: the comment leaves and the next older one moves in, nothing else.
    const { after: removal } = await recorder.changesFrom(() =>
      team.mario.client.projects.deleteComment(project.id, onPage.id),
    );
    expect(removal.map(({ message }) => message)).toEqual([
      {
        type: 'changes',
        id: 'comments',
        changes: [
          { type: 'removed', doc: { id: onPage.id } },
          {
            type: 'added',
            doc: expect.objectContaining({ id: older.id, content: 'also short' }),
            newIndex: 19,
          },
        ],
      },
    ]);
    expect(removal.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThan(1024);
    recorder.socket.close();
  });

  it('follows an older page live (before ==): its edits and deletes, and never a new comment', async () => {
    const project = await newProject('Older page live');
    const ids: string[] = [];
    for (let index = 0; index < 30; index += 1)
      ids.push((await team.mario.client.projects.addComment(project.id, { content: `c${index}` })).id);
    // The newest page holds c29..c10; the page before c10 is c9..c0.
    const cursor = ids[10] ?? '';
    const target = ids[4] ?? '';
    const recorder = await openRecorder(luigiCookie);
    recorder.subscribe('older', projectCommentsQuery(project.id, COMMENTS_PAGE_SIZE, cursor));
    await recorder.settle();
    const snapshot = recorder.received.find(
      ({ message }) => message.type === 'snapshot' && message.id === 'older',
    );
    expect(snapshot?.message).toMatchObject({
      docs: ids
        .slice(0, 10)
        .toReversed()
        .map((id) => ({ id })),
    });
    const start = recorder.received.length;

    const changesSinceStart = () =>
      recorder.received.slice(start).filter(({ message }) => message.type === 'changes').length;
    await team.mario.client.projects.addComment(project.id, { content: 'newest' });
    const edited = await team.mario.client.projects.editComment(project.id, target, { content: 'rewritten' });
    // The delete waits for the edit's change: a subscriber re-reads its page, and one re-read after both
    // would rightly show only the removal.
    await expect.poll(changesSinceStart).toBe(1);
    await team.mario.client.projects.deleteComment(project.id, target);
    await expect.poll(changesSinceStart).toBe(2);
    await recorder.settle();
    expect(
      recorder.received
        .slice(start)
        .filter(notProbe)
        .map(({ message }) => message),
    ).toEqual([
      { type: 'changes', id: 'older', changes: [{ type: 'modified', doc: edited, newIndex: 5 }] },
      { type: 'changes', id: 'older', changes: [{ type: 'removed', doc: { id: target } }] },
    ]);
    recorder.socket.close();
  });
});

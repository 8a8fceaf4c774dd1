import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQuery, messages, type CreateProjectInput, type Project } from '../../common';

import {
  LiveRecorder,
  errorOf,
  signUpClient,
  tomorrow,
  type SignedInClient,
} from '../../../test/support/clients';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { WAIT_MS } from '../../../test/support/poll';

let server: TestServer;
let admin: SignedInClient;
let creator: SignedInClient;
let teammate: SignedInClient;

const input = (overrides: Partial<CreateProjectInput> = {}): CreateProjectInput => ({
  name: 'Lifecycle',
  details: 'Made to be edited',
  dueDate: tomorrow(),
  category: 'development',
  assignedUserIds: [teammate.user.uid],
  ...overrides,
});

beforeAll(async () => {
  server = await startTestServer();
  // The first signup is the install's admin.
  admin = await signUpClient(server.url, 'Admin');
  creator = await signUpClient(server.url, 'Creator');
  teammate = await signUpClient(server.url, 'Teammate');
});
afterAll(async () => {
  for (const user of [admin, creator, teammate]) user?.client.close();
  await server.stop();
});

describe('editing a project', () => {
  it('lets the creator edit with the create rules; everyone watching sees it live', async () => {
    const project = await creator.client.projects.create(input());
    expect(project.version).toBe(1);
    const watching = new LiveRecorder<Project>(teammate.client, {
      kind: 'doc',
      collection: 'projects',
      id: project.id,
    });
    await watching.until((docs) => docs.length === 1);
    const edited = await creator.client.projects.update(project.id, {
      ...input({
        name: '  Renamed  ',
        category: 'design',
        assignedUserIds: [teammate.user.uid, creator.user.uid],
      }),
      version: project.version,
    });
    expect(edited).toMatchObject({ name: 'Renamed', category: 'design', version: 2 });
    expect(edited.assignedUserIds).toEqual([teammate.user.uid, creator.user.uid]);
    await watching.until(
      (docs) => docs[0]?.name === 'Renamed' && docs[0].version === 2,
      WAIT_MS,
      'live edit',
    );

    const bad = await errorOf(() =>
      creator.client.projects.update(project.id, { ...input({ name: '', assignedUserIds: [] }), version: 2 }),
    );
    expect(bad.status).toBe(400);
    expect(bad.fields).toMatchObject({
      name: messages.projectNameRequired,
      assignedUserIds: messages.assigneesRequired,
    });
    expect((await teammate.client.projects.get(project.id)).name).toBe('Renamed');
    watching.unsubscribe();
  });

  it('refuses a stale edit with 409 and keeps the newer one', async () => {
    const project = await creator.client.projects.create(input());
    await creator.client.projects.update(project.id, { ...input({ name: 'First save' }), version: 1 });
    const stale = await errorOf(() =>
      admin.client.projects.update(project.id, { ...input({ name: 'Second save' }), version: 1 }),
    );
    expect([stale.status, stale.message]).toEqual([409, messages.projectChanged]);
    expect((await teammate.client.projects.get(project.id)).name).toBe('First save');
  });

  it('lets exactly one of two concurrent edits of the same version win', async () => {
    const project = await creator.client.projects.create(input());
    const results = await Promise.allSettled([
      creator.client.projects.update(project.id, { ...input({ name: 'Creator wins' }), version: 1 }),
      admin.client.projects.update(project.id, { ...input({ name: 'Admin wins' }), version: 1 }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((result) => result.status === 'rejected');
    expect((loser as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    const saved = await teammate.client.projects.get(project.id);
    expect(saved.version).toBe(2);
  });

  it('allows the creator and admins only', async () => {
    const project = await creator.client.projects.create(input());
    const refused = await errorOf(() =>
      teammate.client.projects.update(project.id, { ...input(), version: 1 }),
    );
    expect([refused.status, refused.message]).toEqual([403, messages.onlyCreatorEdits]);
    expect(
      (await admin.client.projects.update(project.id, { ...input({ name: 'By admin' }), version: 1 })).name,
    ).toBe('By admin');
    const missing = await errorOf(() =>
      creator.client.projects.update('no-such-project', { ...input(), version: 1 }),
    );
    expect([missing.status, missing.message]).toEqual([404, messages.noSuchDocument]);
  });
});

describe('completed projects are kept', () => {
  it('completes off every dashboard, lists it as completed, reopens it live, and deletes it for good', async () => {
    const project = await creator.client.projects.create(input({ name: 'Kept after completion' }));
    await creator.client.projects.addComment(project.id, { content: 'Worth keeping' });
    const dashboard = new LiveRecorder<Project>(
      teammate.client,
      dashboardQuery('all', teammate.user.uid, 50),
    );
    await dashboard.until((docs) => docs.some((doc) => doc.id === project.id));

    // Only the creator completes (the spec's rule), and the spec's messages stay.
    const refused = await errorOf(() => teammate.client.projects.complete(project.id));
    expect([refused.status, refused.message]).toEqual([403, messages.onlyCreatorCompletes]);
    await creator.client.projects.complete(project.id);
    await dashboard.until((docs) => !docs.some((doc) => doc.id === project.id), WAIT_MS, 'off the dashboard');
    const gone = await errorOf(() => teammate.client.projects.get(project.id));
    expect([gone.status, gone.message]).toEqual([404, messages.noSuchDocument]);
    const again = await errorOf(() => creator.client.projects.complete(project.id));
    expect(again.status).toBe(404);

    const completed = await teammate.client.projects.listCompleted({ limit: 10 });
    expect(completed.projects[0]).toMatchObject({
      id: project.id,
      completedBy: { id: creator.user.uid, displayName: 'Creator' },
    });
    expect(completed.projects[0]?.completedAt).toEqual(expect.any(String));
    // Old links (search, notifications) find it as completed; an open or unknown project is not completed.
    expect(await teammate.client.projects.getCompleted(project.id)).toMatchObject({
      id: project.id,
      name: 'Kept after completion',
      completedBy: { id: creator.user.uid },
    });
    const unknown = await errorOf(() => teammate.client.projects.getCompleted('no-such-project'));
    expect([unknown.status, unknown.message]).toEqual([404, messages.completedProjectNotFound]);

    const notYours = await errorOf(() => teammate.client.projects.reopen(project.id));
    expect([notYours.status, notYours.message]).toEqual([403, messages.onlyCreatorReopens]);
    await creator.client.projects.reopen(project.id);
    const reopened = await errorOf(() => teammate.client.projects.getCompleted(project.id));
    expect(reopened.status).toBe(404);
    await dashboard.until(
      (docs) => docs.some((doc) => doc.id === project.id),
      WAIT_MS,
      'back on the dashboard',
    );
    const comments = await teammate.client.projects.listComments(project.id);
    expect(comments.comments.map((comment) => comment.content)).toEqual(['Worth keeping']);

    await creator.client.projects.complete(project.id);
    const deleteRefused = await errorOf(() => teammate.client.projects.deleteForGood(project.id));
    expect([deleteRefused.status, deleteRefused.message]).toEqual([403, messages.onlyCreatorDeletes]);
    await admin.client.projects.deleteForGood(project.id);
    const afterDelete = await teammate.client.projects.listCompleted({ limit: 100 });
    expect(afterDelete.projects.some((entry) => entry.id === project.id)).toBe(false);
    const deletedAgain = await errorOf(() => creator.client.projects.reopen(project.id));
    expect([deletedAgain.status, deletedAgain.message]).toEqual([404, messages.completedProjectNotFound]);
    dashboard.unsubscribe();
  });

  it('pages the completed list by latest completion', async () => {
    const made: Project[] = [];
    for (let index = 0; index < 5; index += 1)
      made.push(await creator.client.projects.create(input({ name: `Done ${index}` })));
    for (const project of made) await creator.client.projects.complete(project.id);
    const first = await teammate.client.projects.listCompleted({ limit: 3 });
    const second = await teammate.client.projects.listCompleted({ limit: 3, after: first.nextCursor });
    const listed = [...first.projects, ...second.projects];
    expect(new Set(listed.map((project) => project.id)).size).toBe(listed.length);
    expect(listed.map((project) => project.id)).toEqual(
      expect.arrayContaining(made.map((project) => project.id)),
    );
    // Latest completion first (the database breaks ties in the same millisecond by id).
    const times = listed.map((project) => project.completedAt);
    expect(times).toEqual([...times].sort().reverse());
  });
});

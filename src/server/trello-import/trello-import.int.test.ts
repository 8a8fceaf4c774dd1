import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommentPage, ProjectPage } from '../../common';
import {
  TRELLO_IMPORT_PATHS,
  trelloImportMessages,
  type ImportJob,
  type TrelloImportRequest,
} from '../../common/trello-import';
import { errorOf, type SignedInClient } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { useTestTeam } from '../../../test/support/test-team';
import { trelloImportsOf } from '../../../test/support/trello-imports';

/**
 * Import from Trello against the real server (docs/decisions/081-trello-import.md): an admin previews a
 * board's JSON export in the documented format (test/fixtures/trello/board.json), imports it, follows the
 * background job to its end, and the projects, comments and completed list read through the API are the
 * board's; a second import creates nothing; a malformed file writes nothing; a member is refused.
 */
const team = useTestTeam({ ada: 'Ada', grace: 'Grace' });

const LANDING = 'Design the landing page';
const OPEN = [LANDING, 'Write the press release', 'Fix the login bug'];
const ARCHIVED = ['Set up CI', 'Pricing page experiment'];

/** The fixture with Grace's email (the export's only one that has an account here) set to her account's. */
function boardExport(): Record<string, unknown> {
  const text = readFileSync(new URL('../../../test/fixtures/trello/board.json', import.meta.url), 'utf8');
  return JSON.parse(text.replaceAll('grace.hopper@example.test', team.grace.email)) as Record<
    string,
    unknown
  >;
}

const call = <T>(member: SignedInClient, method: string, path: string, body?: unknown): Promise<T> =>
  member.client.transport.request<T>(method, path, body);

const preview = (member: SignedInClient, request: TrelloImportRequest) =>
  trelloImportsOf(member).preview(request);
const startImport = (member: SignedInClient, request: TrelloImportRequest) =>
  trelloImportsOf(member).start(request);
const importJob = (member: SignedInClient, id: string) => trelloImportsOf(member).job(id);

/** Polls the job's status until it ends; its last state. */
async function finished(id: string): Promise<ImportJob> {
  let job = await importJob(team.ada, id);
  await pollUntil(
    async () => {
      job = await importJob(team.ada, id);
      return job.status === 'completed' || job.status === 'failed';
    },
    WAIT_MS,
    () => `import ${id} still ${job.status} (${job.processedCards} of ${job.totalCards} cards)`,
  );
  return job;
}

const openProjects = async () =>
  (await call<ProjectPage>(team.grace, 'GET', '/api/projects?limit=100')).projects;
const completedProjects = async () =>
  (await team.grace.client.projects.listCompleted({ limit: 100 })).projects;

describe('import from Trello', () => {
  it('previews, imports in the background, and a second import creates nothing', async () => {
    const choices = { dueDateWhenMissing: '2031-06-30', fallbackCategory: 'sales' } as const;
    const shown = await preview(team.ada, { board: boardExport(), ...choices });
    expect(shown.boardName).toBe('Launch plan');
    expect(shown.projects).toEqual({ toCreate: 5, completed: 2, alreadyImported: 0 });
    expect(shown.comments).toEqual({ toCreate: 3, alreadyImported: 0, withoutCard: 1 });
    expect(shown.cardsWithoutDueDate).toBe(2);
    expect(shown.labels.map((label) => [label.name, label.category])).toEqual([
      ['Design', 'design'],
      ['Dev', 'development'],
      ['Marketing', 'marketing'],
      ['Urgent', null],
      ['', null],
    ]);
    expect(shown.members.map((member) => [member.fullName, member.account?.id ?? null])).toEqual([
      ['Grace Hopper', team.grace.user.uid],
      ['Linus Torvalds', null],
      ['Alan Turing', null],
    ]);
    // The preview wrote nothing.
    expect(await openProjects()).toEqual([]);

    const labelCategories = Object.fromEntries(
      shown.labels.flatMap((label) => (label.category ? [[label.id, label.category]] : [])),
    );
    const queued = await startImport(team.ada, { board: boardExport(), labelCategories, ...choices });
    expect(queued).toMatchObject({ source: 'trello', title: 'Launch plan', totalCards: 5 });
    const done = await finished(queued.id);
    expect(done).toMatchObject({
      status: 'completed',
      processedCards: 5,
      projectsCreated: 5,
      commentsCreated: 3,
      skipped: 0,
      error: null,
    });

    const open = await openProjects();
    expect(open.map((project) => project.name).sort()).toEqual([...OPEN].sort());
    const landing = open.find((project) => project.name === LANDING)!;
    expect(landing).toMatchObject({
      category: 'design',
      dueDate: '2031-03-15',
      assignedUserIds: [team.grace.user.uid],
      createdBy: expect.objectContaining({ id: team.ada.user.uid }),
    });
    expect(landing.details).toContain('Before launch:\n☐ Draw wireframes\n☑ Pick colours');
    expect(landing.details).toContain('- https://www.figma.com/file/abc/landing');
    const pressRelease = open.find((project) => project.name === 'Write the press release')!;
    expect(pressRelease).toMatchObject({ category: 'marketing', dueDate: '2031-06-30', assignedUserIds: [] });
    expect(open.find((project) => project.name === 'Fix the login bug')!.category).toBe('sales');

    const comments = (await call<CommentPage>(team.grace, 'GET', `/api/projects/${landing.id}/comments`))
      .comments;
    expect(comments.map((comment) => [comment.content, comment.createdAt, comment.authorId])).toEqual([
      [
        'Linus Torvalds on Trello, 2024-05-03 11:15 UTC:\nCan we make the button bigger?',
        '2024-05-03T11:15:00.000Z',
        team.ada.user.uid,
      ],
      [
        'Grace Hopper on Trello, 2024-05-02 09:30 UTC:\nFirst mock-up attached.',
        '2024-05-02T09:30:00.000Z',
        team.ada.user.uid,
      ],
    ]);

    const completed = await completedProjects();
    expect(completed.map((project) => project.name).sort()).toEqual([...ARCHIVED].sort());
    expect(completed.find((project) => project.name === 'Set up CI')).toMatchObject({
      category: 'development',
      completedAt: '2024-05-20T16:45:00.000Z',
    });

    // Again: everything is already there.
    const again = await preview(team.ada, { board: boardExport() });
    expect(again.projects).toEqual({ toCreate: 0, completed: 0, alreadyImported: 5 });
    expect(again.comments).toMatchObject({ toCreate: 0, alreadyImported: 3 });
    const second = await finished((await startImport(team.ada, { board: boardExport() })).id);
    expect(second).toMatchObject({ status: 'completed', projectsCreated: 0, commentsCreated: 0, skipped: 5 });
    expect(await openProjects()).toHaveLength(OPEN.length);
    expect(await completedProjects()).toHaveLength(ARCHIVED.length);
    const commentsAfter = await call<CommentPage>(team.grace, 'GET', `/api/projects/${landing.id}/comments`);
    expect(commentsAfter.comments).toHaveLength(2);
  });

  it('takes an export larger than the API-wide body limit', async () => {
    const board = { ...boardExport(), padding: 'x'.repeat(2 * 1024 * 1024) };
    expect((await preview(team.ada, { board })).projects.toCreate).toBeGreaterThanOrEqual(0);
  });

  it('refuses a malformed file with a message, and writes nothing', async () => {
    const before = { open: (await openProjects()).length, completed: (await completedProjects()).length };
    const broken = boardExport();
    (broken.cards as Record<string, unknown>[])[2]!.idList = 42;
    for (const path of [TRELLO_IMPORT_PATHS.preview, TRELLO_IMPORT_PATHS.start]) {
      const refused = await errorOf(() => call(team.ada, 'POST', path, { board: broken }));
      expect(refused.status).toBe(400);
      expect(refused.message).toBe(trelloImportMessages.boardInvalid);
      expect(refused.fields?.board).toContain('cards[2].idList');
    }
    const notABoard = await errorOf(() =>
      call(team.ada, 'POST', TRELLO_IMPORT_PATHS.start, { board: [1, 2] }),
    );
    expect(notABoard.status).toBe(400);
    const unknownLabel = await errorOf(() =>
      startImport(team.ada, { board: boardExport(), labelCategories: { 'no-such-label': 'design' } }),
    );
    expect(unknownLabel.message).toBe(trelloImportMessages.labelUnknown);
    expect({ open: (await openProjects()).length, completed: (await completedProjects()).length }).toEqual(
      before,
    );
    expect((await errorOf(() => importJob(team.ada, 'no-such-import'))).status).toBe(404);
  });

  it('refuses a member', async () => {
    const queued = await startImport(team.ada, { board: { name: 'Empty', cards: [] } });
    for (const attempt of [
      () => preview(team.grace, { board: boardExport() }),
      () => startImport(team.grace, { board: boardExport() }),
      () => importJob(team.grace, queued.id),
    ]) {
      expect((await errorOf(attempt)).status).toBe(403);
    }
    expect(await finished(queued.id)).toMatchObject({ status: 'completed', totalCards: 0 });
  });
});

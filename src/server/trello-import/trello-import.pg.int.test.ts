import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { CommentPage, ProjectPage } from '../../common';
import { TRELLO_IMPORT_PATHS, type ImportJob } from '../../common/trello-import';
import { newClient, type SignedInClient } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { useTwoInstanceTeam } from '../../../test/support/test-team';

/**
 * Import from Trello on two instances of one PostgreSQL database (docs/decisions/081-trello-import.md):
 * the same board sent to both at once becomes two jobs, each run by one instance, and every card and
 * comment is written once between them (keyed on its Trello id in `imported_sources`); and a job whose
 * holder stalls mid-card is taken over by the other instance once its lease has run out, the stalled
 * card's write refused (fenced on the lease), so every card is still written once.
 */
type DojoClient = SignedInClient['client'];

const team = useTwoInstanceTeam({ ada: ['Ada', 'first'], grace: ['Grace', 'second'] });

/** The fixture board, or with `idPrefix` another board (every Trello id changed), so nothing is imported yet. */
function boardExport(idPrefix = '65a0f0c0a1b2c3d4e5f6'): Record<string, unknown> {
  const text = readFileSync(new URL('../../../test/fixtures/trello/board.json', import.meta.url), 'utf8')
    .replaceAll('65a0f0c0a1b2c3d4e5f6', idPrefix)
    .replaceAll('grace.hopper@example.test', team.grace.email);
  return JSON.parse(text) as Record<string, unknown>;
}

async function finished(client: DojoClient, id: string): Promise<ImportJob> {
  let job: ImportJob | undefined;
  await pollUntil(
    async () => {
      job = (await client.transport.request<{ import: ImportJob }>('GET', `/api/admin/imports/${id}`)).import;
      return job.status === 'completed' || job.status === 'failed';
    },
    WAIT_MS,
    () => `import ${id} still ${job?.status ?? 'unread'}`,
  );
  return job!;
}

describe('import from Trello on two instances', () => {
  it('writes each card and comment once when the same board is imported on both at once', async () => {
    const adaOnSecond = newClient(team.instances.second.url);
    await adaOnSecond.auth.whenReady();
    await adaOnSecond.auth.logIn({ email: team.ada.email, password: team.ada.password });
    try {
      const start = (client: DojoClient) =>
        client.transport.request<{ import: ImportJob }>('POST', TRELLO_IMPORT_PATHS.start, {
          board: boardExport(),
        });
      const [first, second] = await Promise.all([start(team.ada.client), start(adaOnSecond)]);
      const jobs = await Promise.all([
        finished(team.ada.client, first.import.id),
        finished(adaOnSecond, second.import.id),
      ]);
      expect(jobs.map((job) => [job.status, job.processedCards])).toEqual([
        ['completed', 5],
        ['completed', 5],
      ]);
      expect(jobs[0]!.projectsCreated + jobs[1]!.projectsCreated).toBe(5);
      expect(jobs[0]!.commentsCreated + jobs[1]!.commentsCreated).toBe(3);

      const grace = team.grace.client;
      const open = (await grace.transport.request<ProjectPage>('GET', '/api/projects?limit=100')).projects;
      expect(open).toHaveLength(3);
      expect((await grace.projects.listCompleted({ limit: 100 })).projects).toHaveLength(2);
      const landing = open.find((project) => project.name === 'Design the landing page')!;
      const comments = await grace.transport.request<CommentPage>(
        'GET',
        `/api/projects/${landing.id}/comments`,
      );
      expect(comments.comments).toHaveLength(2);
    } finally {
      adaOnSecond.close();
    }
  });

  it("takes over a job whose holder stalled mid-card once its lease ran out, and the holder's card is refused", async () => {
    const ada = team.ada.client;
    const grace = team.grace.client;
    const counts = async () => ({
      open: (await grace.transport.request<ProjectPage>('GET', '/api/projects?limit=100')).projects.length,
      completed: (await grace.projects.listCompleted({ limit: 100 })).projects.length,
    });
    const before = await counts();
    const start = (client: DojoClient, idPrefix: string) =>
      client.transport.request<{ import: ImportJob }>('POST', TRELLO_IMPORT_PATHS.start, {
        board: boardExport(idPrefix),
      });
    const adaOnSecond = newClient(team.instances.second.url);
    await adaOnSecond.auth.whenReady();
    await adaOnSecond.auth.logIn({ email: team.ada.email, password: team.ada.password });
    const db = new pg.Client({ connectionString: team.instances.databaseUrl });
    await db.connect();
    const holderOf = async (id: string) =>
      (
        await db.query<{ claimed_by: string | null }>('select claimed_by from import_jobs where id = $1', [
          id,
        ])
      ).rows[0]?.claimed_by ?? null;
    // Every card's first write records its Trello id: while this lock is held, a card's transaction waits
    // in the middle, as on an instance that stalled (a long pause, a lost network).
    const lock = new pg.Client({ connectionString: team.instances.databaseUrl });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table imported_sources in share row exclusive mode');
      const stalled = (await start(ada, '66a0f0c0a1b2c3d4e5f6')).import;
      await pollUntil(
        async () => (await holderOf(stalled.id)) !== null,
        WAIT_MS,
        () => 'the first instance did not take its job',
      );
      const holder = await holderOf(stalled.id);
      // Its lease runs out while it waits; an import started on the second instance wakes that one,
      // which takes the stalled job over (and queues its own).
      await db.query('update import_jobs set claimed_until = $1 where id = $2', [
        '2000-01-01T00:00:00.000Z',
        stalled.id,
      ]);
      const other = (await start(adaOnSecond, '67a0f0c0a1b2c3d4e5f6')).import;
      await pollUntil(
        async () => ![null, holder].includes(await holderOf(stalled.id)),
        WAIT_MS,
        () => 'the second instance did not take the stalled job over',
      );
      await lock.query('rollback');

      const [takenOver, own] = await Promise.all([finished(ada, stalled.id), finished(ada, other.id)]);
      expect([takenOver, own].map((job) => [job.status, job.processedCards, job.projectsCreated])).toEqual([
        ['completed', 5, 5],
        ['completed', 5, 5],
      ]);
      expect(takenOver.commentsCreated + own.commentsCreated).toBe(6);
      // Each board's three open cards and two archived ones, once.
      expect(await counts()).toEqual({ open: before.open + 6, completed: before.completed + 4 });
    } finally {
      await lock.end();
      await db.end();
      adaOnSecond.close();
    }
  });
});

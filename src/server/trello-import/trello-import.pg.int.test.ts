import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CommentPage, ProjectPage } from '../../common';
import { TRELLO_IMPORT_PATHS, type ImportJob } from '../../common/trello-import';
import { newClient, type SignedInClient } from '../../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { useTwoInstanceTeam } from '../../../test/support/test-team';

/**
 * Import from Trello on two instances of one PostgreSQL database (docs/decisions/081-trello-import.md):
 * the same board sent to both at once becomes two jobs, each run by one instance, and every card and
 * comment is written once between them (keyed on its Trello id in `imported_sources`).
 */
type DojoClient = SignedInClient['client'];

const team = useTwoInstanceTeam({ ada: ['Ada', 'first'], grace: ['Grace', 'second'] });

function boardExport(): Record<string, unknown> {
  const text = readFileSync(new URL('../../../test/fixtures/trello/board.json', import.meta.url), 'utf8');
  return JSON.parse(text.replaceAll('grace.hopper@example.test', team.grace.email)) as Record<
    string,
    unknown
  >;
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
});

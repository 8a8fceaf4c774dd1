import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { messages, type CreateProjectInput, type Project } from '../../src/common';
import type { Database } from '../../src/server/db/schema';
import type { SignedInClient } from './clients';

/** Requests in flight at once: a burst, in chunks a small machine serves without timing out. */
const CHUNK = 25;

const draft = (name: string, assignedUserIds: string[]): CreateProjectInput => ({
  name,
  details: 'Before the burst.',
  dueDate: '2030-01-01',
  category: 'development',
  assignedUserIds,
});

async function inChunks<T, R>(
  items: readonly T[],
  each: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += CHUNK) {
    const chunk = items.slice(start, start + CHUNK);
    results.push(...(await Promise.all(chunk.map((item, offset) => each(item, start + offset)))));
  }
  return results;
}

/** `count` projects by `creator`, each assigned to `assigneeIds` (every creator on its first instance). */
export function createProjects(
  creator: SignedInClient,
  count: number,
  assigneeIds: string[],
): Promise<Project[]> {
  return inChunks(Array.from({ length: count }), (_, index) =>
    creator.client.projects.create(draft(`Before ${index}`, assigneeIds)),
  );
}

/** The edit of `project` made by the burst: a new name, from version 1. */
const editedName = (project: Project): string => `After ${project.name}`;

export interface EditAnswer {
  project: Project;
  status: number;
  retryAfter: string | null;
  body: unknown;
}

/**
 * One edit of each project, all at once as one member (`cookie`), raw HTTP so the statuses and headers
 * show; edit n goes to `urls[n % urls.length]`, so several instances share the burst.
 */
export function editEach(
  urls: readonly string[],
  cookie: string,
  projects: readonly Project[],
): Promise<EditAnswer[]> {
  return inChunks(projects, async (project, index) => {
    const response = await fetch(`${urls[index % urls.length]}/api/projects/${project.id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        ...draft(editedName(project), project.assignedUserIds),
        details: 'After the burst.',
        version: 1,
      }),
    });
    return {
      project,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.json(),
    };
  });
}

/** Exactly `limit` edits went through; every other one is a 429 that says when to retry, in the catalogue's words. */
export function expectLimitedTo(answers: readonly EditAnswer[], limit: number): void {
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(limit);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(refused).toHaveLength(answers.length - limit);
  for (const answer of refused) {
    expect(answer.status).toBe(429);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.body).toEqual({
      error: { code: 'too-many-requests', message: messages.tooManyWrites, requestId: expect.any(String) },
    });
  }
}

/**
 * What the database holds after the burst: an accepted edit's project is edited (version 2), a refused
 * one's is exactly as created; the assignee heard of each accepted edit once and of nothing else.
 */
async function expectOnlyAcceptedEditsStored(
  db: Kysely<Database>,
  answers: readonly EditAnswer[],
  assigneeId: string,
): Promise<void> {
  const rows = await db
    .selectFrom('projects')
    .select(['id', 'name', 'details', 'version', 'updated_at'])
    .where(
      'id',
      'in',
      answers.map((answer) => answer.project.id),
    )
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const { project, status } of answers) {
    const row = byId.get(project.id);
    expect(row, project.id).toBeDefined();
    if (status === 200) {
      expect(row).toMatchObject({ name: editedName(project), details: 'After the burst.', version: 2 });
    } else {
      expect(row).toEqual({
        id: project.id,
        name: project.name,
        details: 'Before the burst.',
        version: 1,
        updated_at: project.updatedAt,
      });
    }
  }
  const edited = await db
    .selectFrom('notifications')
    .select('project_id')
    .where('user_id', '=', assigneeId)
    .where('kind', '=', 'project_edited')
    .execute();
  const accepted = answers.filter((answer) => answer.status === 200).map((answer) => answer.project.id);
  expect(edited.map((row) => row.project_id).sort()).toEqual(accepted.sort());
}

/**
 * The burst: `count` projects assigned to `watcher`, each edited once by `editor` across `urls`, of which
 * exactly `limit` edits go through and only those are stored (expectLimitedTo, expectOnlyAcceptedEditsStored).
 */
export async function expectBurstLimitedTo(
  burst: { urls: readonly string[]; editor: SignedInClient; watcher: SignedInClient; db: Kysely<Database> },
  count: number,
  limit: number,
): Promise<void> {
  const { urls, editor, watcher, db } = burst;
  const projects = await createProjects(editor, count, [watcher.user.uid]);
  const answers = await editEach(urls, editor.client.transport.cookieHeader() ?? '', projects);
  expectLimitedTo(answers, limit);
  await expectOnlyAcceptedEditsStored(db, answers, watcher.user.uid);
}

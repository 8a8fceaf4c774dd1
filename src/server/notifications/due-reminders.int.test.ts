import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateProjectInput } from '../../common';
import { signUpClient, tomorrow, type SignedInClient } from '../../../test/support/clients';
import { pollUntil } from '../../../test/support/poll';
import { openServerDatabase } from '../../../test/support/test-database';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import type { DatabaseHandle } from '../db/database';

/** Calendar day `offset` days from `day` (YYYY-MM-DD), at `time` UTC, as an ISO string. */
const at = (day: string, offset: number, time: string): string => {
  const date = new Date(`${day}T${time}Z`);
  date.setUTCDate(date.getUTCDate() + offset);
  return date.toISOString();
};

let clockDir: string;
let clockFile: string;
let server: TestServer;
let database: DatabaseHandle;
let creator: SignedInClient;
let assignee: SignedInClient;
let optedOut: SignedInClient;
const dueDate = tomorrow();

const setClock = (iso: string) => writeFile(clockFile, iso);

const input = (name: string, assignedUserIds: string[]): CreateProjectInput => ({
  name,
  details: 'Due soon',
  dueDate,
  category: 'development',
  assignedUserIds,
});

async function remindersOf(projectId: string) {
  return (
    database.db
      .selectFrom('notifications')
      .select(['user_id', 'kind', 'dedupe_key', 'actor_id'])
      .where('project_id', '=', projectId)
      // Actions notify too (the assignment that made the project); only the scheduler's reminders count here.
      .where('kind', 'in', ['due_tomorrow', 'overdue'])
      .orderBy('kind')
      .orderBy('user_id')
      .execute()
  );
}

beforeAll(async () => {
  clockDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-clock-'));
  clockFile = path.join(clockDir, 'now');
  // Two days before the due date, one second before midnight: nothing is due tomorrow yet.
  await setClock(at(dueDate, -2, '23:59:59'));
  server = await startTestServer({
    configOverrides: { testClockFile: clockFile, dueReminderIntervalMs: 50 },
  });
  database = await openServerDatabase(server);
  await signUpClient(server.url, 'Admin');
  creator = await signUpClient(server.url, 'Creator');
  assignee = await signUpClient(server.url, 'Assignee');
  optedOut = await signUpClient(server.url, 'Opted out');
  // Opted out of 'due tomorrow' in the app (the default is on); 'overdue' keeps the default.
  await database.db
    .insertInto('notification_preferences')
    .values({ user_id: optedOut.user.uid, kind: 'due_tomorrow', in_app: 0, email: 'off' })
    .execute();
});
afterAll(async () => {
  for (const user of [creator, assignee, optedOut]) user?.client.close();
  await database?.close();
  await server?.stop();
  await rm(clockDir, { recursive: true, force: true });
});

describe('due reminders on one instance', () => {
  it('reminds creator and assignees once when the day before the due date starts, then once when overdue, across a restart', async () => {
    const project = await creator.client.projects.create(
      input('Due tomorrow', [assignee.user.uid, optedOut.user.uid]),
    );
    const completed = await creator.client.projects.create(input('Done early', [assignee.user.uid]));
    await creator.client.projects.complete(completed.id);
    const uids = [creator.user.uid, assignee.user.uid].sort();

    // Past midnight: the due date is tomorrow.
    await setClock(at(dueDate, -1, '00:00:01'));
    await pollUntil(
      async () => (await remindersOf(project.id)).length === 2,
      10_000,
      () => 'no due-tomorrow reminders after the clock passed midnight',
    );
    // The opted-out member and the completed project got none; the others one each.
    const dueTomorrow = await remindersOf(project.id);
    expect(dueTomorrow.map((row) => [row.kind, row.user_id])).toEqual(
      uids.map((uid) => ['due_tomorrow', uid]),
    );
    expect(dueTomorrow.every((row) => row.actor_id === null)).toBe(true);
    expect(dueTomorrow.map((row) => row.dedupe_key)).toEqual(
      uids.map((uid) => `due_tomorrow:${project.id}:${uid}:${dueDate}`),
    );

    // The due date has passed: overdue for all three (the opt-out was for 'due tomorrow' only).
    await setClock(at(dueDate, 1, '00:00:01'));
    await pollUntil(
      async () => (await remindersOf(project.id)).filter((row) => row.kind === 'overdue').length === 3,
      10_000,
      () => 'no overdue reminders after the due date passed',
    );

    await server.restart();
    // A project created after the restart is overdue at once: its reminder proves the new process ticked.
    const later = await creator.client.projects.create(input('After the restart', [assignee.user.uid]));
    await pollUntil(
      async () => (await remindersOf(later.id)).length === 2,
      10_000,
      () => 'the restarted server created no reminders',
    );

    const all = await remindersOf(project.id);
    expect(all.map((row) => [row.kind, row.user_id])).toEqual([
      ...uids.map((uid) => ['due_tomorrow', uid]),
      ...[creator.user.uid, assignee.user.uid, optedOut.user.uid].sort().map((uid) => ['overdue', uid]),
    ]);
    expect(await remindersOf(completed.id)).toEqual([]);
  });
});

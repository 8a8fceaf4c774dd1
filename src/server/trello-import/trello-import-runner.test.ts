import { readFileSync } from 'node:fs';
import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import type { Viewer } from '../core/viewer';
import { LocalChangeBus, type Change } from '../db/change-bus';
import { migrationProviderFor } from '../db/migrations';
import type { Database } from '../db/schema';
import { UnitOfWork } from '../db/unit-of-work';
import { TrelloImportRunner } from './trello-import-runner';
import {
  advanceImportJob,
  claimImportJob,
  findImportJob,
  findRunnableImportJobs,
} from './trello-import-repository';
import { TrelloImportService } from './trello-import-service';

/**
 * The background job on an in-memory SQLite database migrated to the latest schema: a runner writes every
 * card once and counts it; a job another instance holds is left alone; a job whose holder stalled is
 * taken over from the card after the last one counted; a write fenced on a lost lease is refused.
 */
const ADMIN = 'admin-1';
const silent = { error: () => {}, warn: () => {}, info: () => {} };
const boardExport = (): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/trello/board.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const running: TrelloImportRunner[] = [];
let opened: Kysely<Database> | undefined;
afterEach(async () => {
  for (const runner of running.splice(0)) await runner.stop();
  await opened?.destroy();
  opened = undefined;
});

async function setUp() {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
  opened = db;
  const migrated = await new Migrator({ db, provider: migrationProviderFor('sqlite') }).migrateToLatest();
  expect(migrated.error).toBeUndefined();
  const now = new Date().toISOString();
  await sql`insert into users (id, email, email_key, password_hash, display_name, search_name, name_key,
      photo_url, role, status, created_at, updated_at)
    values (${ADMIN}, 'admin@example.test', 'admin@example.test', 'x', 'Admin', 'admin', 'admin', '',
      'admin', 'active', ${now}, ${now})`.execute(db);
  const bus = new LocalChangeBus();
  const published: Change[] = [];
  bus.subscribe((changes) => {
    if (changes !== 'resync') published.push(...changes);
  });
  const writes = new UnitOfWork({ db, changes: bus });
  const runner = (instanceId: string) => {
    const made = new TrelloImportRunner({ db, writes, instanceId, log: silent, pollMs: 20 });
    running.push(made);
    return made;
  };
  // As on a server: queuing a job wakes the runners (here every runner of the test is "this instance").
  const service = new TrelloImportService({
    db,
    wake: () => {
      for (const made of running) made.wake();
    },
  });
  const admin = { uid: ADMIN, role: 'admin' } as Viewer;
  const queue = async () => (await service.start(admin, { board: boardExport() })).id;
  return { db, runner, service, admin, queue, published };
}

const count = async (db: Kysely<Database>, table: 'projects' | 'comments' | 'imported_sources') =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function untilEnded(db: Kysely<Database>, id: string) {
  await pollUntil(
    async () => ['completed', 'failed'].includes((await findImportJob(db, id))?.status ?? ''),
    WAIT_MS,
    () => `import ${id} did not end`,
  );
  return (await findImportJob(db, id))!;
}

describe('the import runner', () => {
  it('writes every card once, counts it, publishes the changes, and drops the payload at the end', async () => {
    const { db, runner, queue, published } = await setUp();
    const id = await queue();
    runner('one').start();
    const job = await untilEnded(db, id);
    expect(job).toMatchObject({
      status: 'completed',
      processed_items: 5,
      projects_created: 5,
      comments_created: 3,
      skipped: 0,
      claimed_by: null,
    });
    expect(await count(db, 'projects')).toBe(5);
    expect(await count(db, 'comments')).toBe(3);
    expect(await count(db, 'imported_sources')).toBe(8);
    expect(published.filter((change) => change.collection === 'projects')).toHaveLength(5);
    const payload = await db
      .selectFrom('import_jobs')
      .select('payload')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(payload?.payload).toBe('');

    // The same board again: nothing new.
    const again = await untilEnded(db, await queue());
    expect(again).toMatchObject({
      status: 'completed',
      projects_created: 0,
      comments_created: 0,
      skipped: 5,
    });
    expect(await count(db, 'projects')).toBe(5);
  });

  it('leaves a job another instance holds, and takes over one whose holder stalled after the last card it counted', async () => {
    const { db, runner, queue } = await setUp();
    const id = await queue();
    const now = new Date();
    const later = new Date(now.getTime() + 60_000).toISOString();
    expect(await claimImportJob(db, id, 'other', now.toISOString(), later)).toBe(true);
    // Two cards counted by the other instance (without writing them, so the test sees who wrote what).
    for (const processed of [0, 1]) {
      const step = { instance: 'other', processed, projects: 0, comments: 0, skipped: 0 };
      expect(await advanceImportJob(db, id, { ...step, now: now.toISOString(), until: later })).toBe(true);
    }
    // Held by the other instance: no runner may take it.
    expect(await findRunnableImportJobs(db, new Date().toISOString(), 5)).toEqual([]);
    // This instance starts while the other holds it: its start-up pass finds the job unfinished and
    // keeps a timer to look again.
    const mine = runner('mine');
    mine.start();
    await pollUntil(
      async () => mine.watching,
      WAIT_MS,
      () => 'no timer while a job is unfinished',
    );
    expect((await findImportJob(db, id))?.claimed_by).toBe('other');

    // The other instance stalls: its lease runs out, and this one's timer goes on from the third card.
    await db
      .updateTable('import_jobs')
      .set({ claimed_until: new Date(now.getTime() - 1).toISOString() })
      .where('id', '=', id)
      .execute();
    const job = await untilEnded(db, id);
    expect(job).toMatchObject({ status: 'completed', processed_items: 5, projects_created: 3 });
    const names = (await db.selectFrom('projects').select('name').execute()).map((row) => row.name).sort();
    expect(names).toEqual(['Fix the login bug', 'Pricing page experiment', 'Set up CI']);
    // Nothing left to run: the timer is gone.
    await pollUntil(
      async () => !mine.busy && !mine.watching,
      WAIT_MS,
      () => 'a timer kept after every job ended',
    );
  });

  it('does nothing on an idle server: no timer without a job, and a job queued here wakes it', async () => {
    const { db, runner, queue } = await setUp();
    const idle = runner('idle');
    idle.start();
    await pollUntil(
      async () => !idle.busy,
      WAIT_MS,
      () => 'the start-up pass did not end',
    );
    expect(idle.watching).toBe(false);

    const id = await queue();
    const job = await untilEnded(db, id);
    expect(job.status).toBe('completed');
    await pollUntil(
      async () => !idle.busy && !idle.watching,
      WAIT_MS,
      () => 'a timer kept after the job ended',
    );
  });

  it('refuses to count a card for an instance that lost the lease, or out of turn', async () => {
    const { db, queue } = await setUp();
    const id = await queue();
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(await claimImportJob(db, id, 'first', now, later)).toBe(true);
    expect(await claimImportJob(db, id, 'second', now, later)).toBe(false);
    const step = { projects: 1, comments: 0, skipped: 0, now, until: later };
    expect(await advanceImportJob(db, id, { ...step, instance: 'second', processed: 0 })).toBe(false);
    expect(await advanceImportJob(db, id, { ...step, instance: 'first', processed: 1 })).toBe(false);
    expect(await advanceImportJob(db, id, { ...step, instance: 'first', processed: 0 })).toBe(true);
    expect(await findImportJob(db, id)).toMatchObject({ processed_items: 1, projects_created: 1 });
  });
});

import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema';
import { inChunks } from '../projects/imported-projects-repository';

type ImportedKind = 'trello-card' | 'trello-comment';

/** The active accounts that go by these (lower-cased) emails. */
export async function activeAccountsByEmailKey(
  db: Kysely<Database>,
  emailKeys: readonly string[],
): Promise<{ id: string; email_key: string; display_name: string }[]> {
  return inChunks(emailKeys, (chunk) =>
    db
      .selectFrom('users')
      .select(['id', 'email_key', 'display_name'])
      .where('email_key', 'in', chunk)
      .where('status', '=', 'active')
      .execute(),
  );
}

/** What earlier runs made of these source ids: source id → target id. */
export async function importedTargets(
  db: Kysely<Database>,
  kind: ImportedKind,
  sourceIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await inChunks(sourceIds, (chunk) =>
    db
      .selectFrom('imported_sources')
      .select(['source_id', 'target_id'])
      .where('kind', '=', kind)
      .where('source_id', 'in', chunk)
      .execute(),
  );
  return new Map(rows.map((row) => [row.source_id, row.target_id]));
}

/**
 * Records that `sourceId` became `targetId`, unless an earlier (or concurrent) run already did: true when
 * this call recorded it, which is what lets the caller write the target.
 */
export async function recordImported(
  db: Kysely<Database>,
  row: { kind: ImportedKind; sourceId: string; targetId: string; importId: string; now: string },
): Promise<boolean> {
  const result = await db
    .insertInto('imported_sources')
    .values({
      kind: row.kind,
      source_id: row.sourceId,
      target_id: row.targetId,
      import_id: row.importId,
      created_at: row.now,
    })
    .onConflict((conflict) => conflict.columns(['kind', 'source_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function projectExists(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export type ImportJobRow = Selectable<Database['import_jobs']>;

export async function insertImportJob(
  db: Kysely<Database>,
  job: {
    id: string;
    source: string;
    title: string;
    payload: string;
    totalItems: number;
    createdBy: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('import_jobs')
    .values({
      id: job.id,
      source: job.source,
      status: 'queued',
      title: job.title,
      payload: job.payload,
      total_items: job.totalItems,
      error: null,
      claimed_by: null,
      claimed_until: null,
      created_by: job.createdBy,
      created_at: job.now,
      updated_at: job.now,
      finished_at: null,
    })
    .execute();
}

/** The job without its payload (which may be megabytes). */
export async function findImportJob(
  db: Kysely<Database>,
  id: string,
): Promise<Omit<ImportJobRow, 'payload'> | undefined> {
  return db
    .selectFrom('import_jobs')
    .select([
      'id',
      'source',
      'status',
      'title',
      'total_items',
      'processed_items',
      'projects_created',
      'comments_created',
      'skipped',
      'error',
      'claimed_by',
      'claimed_until',
      'created_by',
      'created_at',
      'updated_at',
      'finished_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function readImportJobPayload(
  db: Kysely<Database>,
  id: string,
): Promise<{ payload: string; processed_items: number } | undefined> {
  return db
    .selectFrom('import_jobs')
    .select(['payload', 'processed_items'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Whether any job is still to run or running, whoever holds it: while one is, the runner keeps a timer to
 * take it over if its holder's lease runs out; with none, it stays idle until woken.
 */
export async function anyUnfinishedImportJob(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('import_jobs')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Jobs still to run whose lease nobody holds, oldest first. */
export async function findRunnableImportJobs(
  db: Kysely<Database>,
  now: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('import_jobs')
    .select('id')
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes a job for `instance` until `until`, in one statement: of two instances trying at once the second
 * finds it held (PostgreSQL re-checks the condition once the first commits; SQLite writes one at a time)
 * and gets nothing. True when this instance holds it.
 */
export async function claimImportJob(
  db: Kysely<Database>,
  id: string,
  instance: string,
  now: string,
  until: string,
): Promise<boolean> {
  const claimed = await db
    .updateTable('import_jobs')
    .set({ claimed_by: instance, claimed_until: until, status: 'running', updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .returning('id')
    .execute();
  return claimed.length > 0;
}

/**
 * One item done, inside the transaction that wrote it, fenced: only while `instance` holds the job and
 * the item is the one it expects (`processed` items before it), which extends the lease. False when the
 * lease was lost: the caller rolls the item back.
 */
export async function advanceImportJob(
  db: Kysely<Database>,
  id: string,
  step: {
    instance: string;
    processed: number;
    projects: number;
    comments: number;
    skipped: number;
    now: string;
    until: string;
  },
): Promise<boolean> {
  const advanced = await db
    .updateTable('import_jobs')
    .set((eb) => ({
      processed_items: eb('processed_items', '+', 1),
      projects_created: eb('projects_created', '+', step.projects),
      comments_created: eb('comments_created', '+', step.comments),
      skipped: eb('skipped', '+', step.skipped),
      claimed_until: step.until,
      updated_at: step.now,
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', step.instance)
    .where('claimed_until', '>=', step.now)
    .where('processed_items', '=', step.processed)
    .returning('id')
    .execute();
  return advanced.length > 0;
}

/** The job ends (completed or failed) if this instance still holds it; its payload is dropped. */
export async function finishImportJob(
  db: Kysely<Database>,
  id: string,
  instance: string,
  outcome: { status: 'completed' | 'failed'; error: string | null; now: string },
): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({
      status: outcome.status,
      error: outcome.error,
      payload: '',
      claimed_by: null,
      claimed_until: null,
      updated_at: outcome.now,
      finished_at: outcome.now,
    })
    .where('id', '=', id)
    .where('claimed_by', '=', instance)
    .execute();
}

/** Lets go of a job still running (this instance stops): another instance, or the next start, goes on. */
export async function releaseImportJob(db: Kysely<Database>, id: string, instance: string): Promise<void> {
  await db
    .updateTable('import_jobs')
    .set({ claimed_by: null, claimed_until: null })
    .where('id', '=', id)
    .where('claimed_by', '=', instance)
    .execute();
}

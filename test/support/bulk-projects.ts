import type { Insertable, Kysely } from 'kysely';
import { PROJECT_CATEGORIES as CATEGORIES } from '../../src/common';
import type { Database } from '../../src/server/db/schema';
import { openDatabase } from '../../src/server/db/database';

const ROWS_PER_INSERT = 500;

/**
 * Writes `count` open projects straight into the server's database in multi-row inserts, for tests of
 * lists far larger than any test could create through the API. `perMillisecond` projects share each
 * `created_at`, so ties in the order are common and paging must break them by id. Returns the ids, oldest
 * first. Nothing is published: call it before anything reads or subscribes to the lists.
 */
export async function insertProjectsInBulk(
  /** The server's data: its DATA_DIR, and its database URL on PostgreSQL. */
  server: { dataDir: string; databaseUrl?: string | undefined },
  input: { count: number; creatorId: string; assigneeIds: string[]; perMillisecond?: number; start?: Date },
): Promise<string[]> {
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  const ids: string[] = [];
  try {
    const startMs = (input.start ?? new Date('2020-01-01T00:00:00.000Z')).getTime();
    const perMs = input.perMillisecond ?? 3;
    const tag = Math.random().toString(36).slice(2, 8);
    for (let offset = 0; offset < input.count; offset += ROWS_PER_INSERT) {
      const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, input.count - offset) }, (_, index) => {
        const n = offset + index;
        const createdAt = new Date(startMs + Math.floor(n / perMs)).toISOString();
        return {
          id: `bulk-${tag}-${String(n).padStart(7, '0')}`,
          name: `Bulk ${n}`,
          details: `Bulk project number ${n}`,
          due_date: `2030-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`,
          category: CATEGORIES[n % CATEGORIES.length] ?? 'development',
          created_by: input.creatorId,
          created_at: createdAt,
          updated_at: createdAt,
        };
      });
      await insertChunk(database.db, rows, input.assigneeIds);
      ids.push(...rows.map((row) => row.id));
    }
  } finally {
    await database.close();
  }
  return ids;
}

async function insertChunk(
  db: Kysely<Database>,
  rows: Insertable<Database['projects']>[],
  assigneeIds: string[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('projects').values(rows).execute();
    await trx
      .insertInto('project_assignees')
      .values(
        rows.flatMap((row) =>
          assigneeIds.map((userId, position) => ({ project_id: row.id, user_id: userId, position })),
        ),
      )
      .execute();
  });
}

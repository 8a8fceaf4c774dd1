import { nameSearchKey } from '../../src/common';
import { openDatabase } from '../../src/server/db/database';

const ROWS_PER_INSERT = 500;

/**
 * Writes `count` active members straight into the server's database and puts them on a project's
 * assignees after those it has: more people on one project than the API allows (it caps assignees), for
 * tests of actions that tell a crowd. They cannot sign in (no password hash matches). Returns their ids.
 */
export async function assignBulkMembers(
  /** The server's data: its DATA_DIR, and its database URL on PostgreSQL. */
  server: { dataDir: string; databaseUrl?: string | undefined },
  input: { projectId: string; count: number },
): Promise<string[]> {
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  const tag = Math.random().toString(36).slice(2, 8);
  const now = new Date().toISOString();
  const ids = Array.from({ length: input.count }, (_, n) => `bulk-${tag}-${String(n).padStart(5, '0')}`);
  try {
    await database.db.transaction().execute(async (trx) => {
      const assigned = await trx
        .selectFrom('project_assignees')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('project_id', '=', input.projectId)
        .executeTakeFirstOrThrow();
      const firstPosition = Number(assigned.count);
      for (let offset = 0; offset < ids.length; offset += ROWS_PER_INSERT) {
        const chunk = ids.slice(offset, offset + ROWS_PER_INSERT);
        await trx.insertInto('users').values(memberRows(chunk, now)).execute();
        await trx
          .insertInto('project_assignees')
          .values(
            chunk.map((userId, index) => ({
              project_id: input.projectId,
              user_id: userId,
              position: firstPosition + offset + index,
            })),
          )
          .execute();
      }
    });
  } finally {
    await database.close();
  }
  return ids;
}

/**
 * Writes `count` active members straight into the server's database, with ids of `idLength` characters
 * (the API's longest, 64, makes the largest changes a write can send), on no project. Returns their ids.
 */
export async function addBulkMembers(
  server: { dataDir: string; databaseUrl?: string | undefined },
  input: { count: number; idLength: number },
): Promise<string[]> {
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  const tag = Math.random().toString(36).slice(2, 8);
  const ids = Array.from({ length: input.count }, (_, n) =>
    `bulk-${tag}-${String(n).padStart(5, '0')}-`.padEnd(input.idLength, 'x'),
  );
  try {
    await database.db.insertInto('users').values(memberRows(ids, new Date().toISOString())).execute();
  } finally {
    await database.close();
  }
  return ids;
}

/** Members who cannot sign in (no password hash matches). */
function memberRows(ids: string[], now: string) {
  return ids.map((id) => ({
    id,
    email: `${id}@example.com`,
    email_key: `${id}@example.com`,
    password_hash: '!',
    display_name: `Member ${id}`,
    search_name: nameSearchKey(`Member ${id}`),
    photo_url: '',
    online: 0,
    role: 'member' as const,
    status: 'active' as const,
    last_active_at: null,
    created_at: now,
    updated_at: now,
  }));
}

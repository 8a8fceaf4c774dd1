import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProviderFor } from './migrations';

let db: Kysely<unknown> | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

describe('0004_user_search', () => {
  it('fills in the search key of users who signed up before it', async () => {
    db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
    const migrator = new Migrator({ db, provider: migrationProviderFor('sqlite') });
    expect((await migrator.migrateTo('0003_storage_uploads')).error).toBeUndefined();
    const now = new Date().toISOString();
    for (const [id, name] of [
      ['u1', 'José Núñez'],
      ['u2', 'ÅSA Öberg'],
    ]) {
      await sql`insert into users (id, email, email_key, password_hash, display_name, photo_url, created_at, updated_at)
        values (${id}, ${`${id}@example.com`}, ${`${id}@example.com`}, 'x', ${name}, '', ${now}, ${now})`.execute(
        db,
      );
    }

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await sql<{
      id: string;
      search_name: string;
    }>`select id, search_name from users order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'u1', search_name: 'jose nunez' },
      { id: 'u2', search_name: 'asa oberg' },
    ]);
  });
});

import Sqlite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProviderFor } from './migrations';

let opened: Kysely<unknown> | undefined;
afterEach(async () => {
  await opened?.destroy();
  opened = undefined;
});

/** An in-memory SQLite database migrated up to `migration`, and its migrator, to go on from there. */
async function migratedTo(migration: string): Promise<{ db: Kysely<unknown>; migrator: Migrator }> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Sqlite(':memory:') }) });
  opened = db;
  const migrator = new Migrator({ db, provider: migrationProviderFor('sqlite') });
  expect((await migrator.migrateTo(migration)).error).toBeUndefined();
  return { db, migrator };
}

describe('0004_user_search', () => {
  it('fills in the search key of users who signed up before it', async () => {
    const { db, migrator } = await migratedTo('0003_storage_uploads');
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

describe('0013_search', () => {
  it('indexes the projects and comments written before it, and keeps the index on later writes', async () => {
    const { db, migrator } = await migratedTo('0011_team_accounts');
    const now = new Date().toISOString();
    await sql`insert into users (id, email, email_key, password_hash, display_name, photo_url, created_at, updated_at)
      values ('u1', 'u1@example.com', 'u1@example.com', 'x', 'U', '', ${now}, ${now})`.execute(db);
    await sql`insert into projects (id, name, details, due_date, category, created_by, created_at)
      values ('p1', 'Ancien café', 'Détails', '2030-01-01', 'design', 'u1', ${now})`.execute(db);
    await sql`insert into comments (id, project_id, author_id, content, created_at)
      values ('c1', 'p1', 'u1', 'Première remarque', ${now})`.execute(db);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const projectHits = async (query: string) =>
      (
        await sql<{ project_id: string }>`select keys.project_id from projects_fts
          join project_search_keys keys on keys.seq = projects_fts.rowid
          where projects_fts match ${query}`.execute(db)
      ).rows.map((row) => row.project_id);
    const commentHits = async (query: string) =>
      (
        await sql<{
          rowid: number;
        }>`select rowid from comments_fts where comments_fts match ${query}`.execute(db)
      ).rows.length;
    expect(await projectHits('"cafe"')).toEqual(['p1']);
    expect(await projectHits('"details"')).toEqual(['p1']);
    expect(await commentHits('"premiere"')).toBe(1);

    // Deleting the project takes its comments (cascade) out of the index too.
    await sql`delete from projects where id = 'p1'`.execute(db);
    expect(await projectHits('"cafe"')).toEqual([]);
    expect(await commentHits('"premiere"')).toBe(0);
  });
});

describe('0022_admin_links_and_name_keys', () => {
  it('keeps the earliest of lookalike names and numbers the later ones, so the unique key fits', async () => {
    const { db, migrator } = await migratedTo('0021_notification_jobs');
    const users: [string, string, string][] = [
      ['u1', 'Team Admin', '2024-01-01T00:00:00.000Z'],
      ['u2', 'team  ADMIN', '2024-01-02T00:00:00.000Z'],
      ['u3', 'Ｔｅａｍ Ａｄｍｉｎ', '2024-01-03T00:00:00.000Z'],
      ['u4', 'Someone Else', '2024-01-04T00:00:00.000Z'],
      ['u5', 'x'.repeat(60), '2024-01-05T00:00:00.000Z'],
      ['u6', 'X'.repeat(60), '2024-01-06T00:00:00.000Z'],
    ];
    for (const [id, name, createdAt] of users) {
      await sql`insert into users (id, email, email_key, password_hash, display_name, photo_url, created_at, updated_at)
        values (${id}, ${`${id}@example.com`}, ${`${id}@example.com`}, 'x', ${name}, '', ${createdAt}, ${createdAt})`.execute(
        db,
      );
    }

    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await sql<{ id: string; display_name: string; name_key: string }>`
      select id, display_name, name_key from users order by id`.execute(db);
    expect(rows.rows.map((row) => [row.id, row.display_name, row.name_key])).toEqual([
      ['u1', 'Team Admin', 'team admin'],
      ['u2', 'team  ADMIN (2)', 'team admin (2)'],
      ['u3', 'Ｔｅａｍ Ａｄｍｉｎ (3)', 'team admin (3)'],
      ['u4', 'Someone Else', 'someone else'],
      ['u5', 'x'.repeat(60), 'x'.repeat(60)],
      ['u6', `${'X'.repeat(56)} (2)`, `${'x'.repeat(56)} (2)`],
    ]);
  });
});

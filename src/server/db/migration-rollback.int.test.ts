import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { createBackupInstall, type BackupInstall } from '../../../test/support/backup-install';
import { startServerProcess } from '../../../test/support/server-process';
import { openDatabase } from './database';

/**
 * Every pending migration runs in one transaction on both engines: when one fails, the data is exactly as
 * before (the migrations before it in the same run are undone too) and the error names the migration.
 */
let install: BackupInstall | undefined;
afterEach(async () => {
  await install?.remove();
  install = undefined;
});

const open = (extraMigrations = {}) =>
  openDatabase({ dataDir: install?.dataDir ?? '', databaseUrl: install?.databaseUrl, extraMigrations });

async function state(db: Kysely<unknown>) {
  const tables = (await db.introspection.getTables()).map((table) => table.name).sort();
  const settings = await sql<{
    key: string;
    value: string;
  }>`select key, value from settings order by key`.execute(db);
  const migrations = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return { tables, settings: settings.rows, migrations: migrations.rows.map((row) => row.name) };
}

it('a failing migration leaves the data exactly as it was and names itself', async () => {
  install = await createBackupInstall();
  const first = await open();
  await first.db.insertInto('settings').values({ key: 'probe', value: 'before' }).execute();
  const before = await state(first.db as unknown as Kysely<unknown>);
  await first.close();

  const failing = open({
    '9000_changes_things': {
      async up(db: Kysely<unknown>) {
        await db.schema.createTable('upgrade_probe').addColumn('id', 'text').execute();
        await sql`update settings set value = 'changed' where key = 'probe'`.execute(db);
      },
    },
    '9001_fails': {
      up() {
        return Promise.reject(new Error('deliberate failure'));
      },
    },
  });
  await expect(failing).rejects.toThrow(
    /Database migration 9001_fails failed: deliberate failure\. Nothing was changed/,
  );

  const after = await open();
  try {
    expect(await state(after.db as unknown as Kysely<unknown>)).toEqual(before);
    expect(before.tables).not.toContain('upgrade_probe');
  } finally {
    await after.close();
  }
});

it('the real server stops with a message naming the migration that failed, and changes nothing', async () => {
  install = await createBackupInstall();
  // An install where 0014 and 0015 are pending and 0015 cannot run: 0014 succeeds first, then 0015 finds
  // a `notifications` table in its way, so the run must undo 0014 too.
  const setup = await open();
  // Every later migration is made pending too (its table dropped), as migrations run in name order.
  await sql`delete from kysely_migration where name >= '0014'`.execute(setup.db);
  await sql`drop table notification_emails`.execute(setup.db);
  await sql`drop table project_viewers`.execute(setup.db);
  await sql`alter table comments drop column edited_at`.execute(setup.db);
  const before = await state(setup.db as unknown as Kysely<unknown>);
  await setup.close();

  const failed = await startServerProcess({
    dataDir: install.dataDir,
    databaseUrl: install.databaseUrl,
  }).then(
    async (server) => {
      await server.stop();
      return 'the server started';
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  expect(failed).toMatch(/exited \(code 1[,)]/);
  expect(failed).toMatch(
    /The Dojo could not start: Database migration 0015_notifications failed: .*Nothing was changed/,
  );

  const after = new Kysely<unknown>({ dialect: dialectFor(install) });
  try {
    expect(await state(after)).toEqual(before);
    const columns = (await after.introspection.getTables()).find(
      (table) => table.name === 'comments',
    )?.columns;
    expect(columns?.map((column) => column.name)).not.toContain('edited_at');
  } finally {
    await after.destroy();
  }
});

/** A plain connection that runs no migration (opening through openDatabase would retry them). */
function dialectFor(target: BackupInstall) {
  return target.databaseUrl
    ? new PostgresDialect({ pool: new pg.Pool({ connectionString: target.databaseUrl, max: 1 }) })
    : new SqliteDialect({ database: new Sqlite(path.join(target.dataDir, 'dojo.sqlite')) });
}

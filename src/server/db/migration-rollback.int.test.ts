import { sql, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { createBackupInstall, type BackupInstall } from '../../../test/support/backup-install';
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

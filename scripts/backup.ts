/**
 * `npm run export -- --out FILE [--without-sessions]` and `npm run import -- --in FILE`: the same
 * configuration as the server (DATA_DIR, DATABASE_URL, storage settings). See docs/backup-and-upgrade.md.
 */
import { parseArgs } from 'node:util';
import { ArchiveError } from '../src/server/backup/archive';
import { exportInstall, importInstall } from '../src/server/backup/backup-service';
import { ConfigError, loadConfig } from '../src/server/config/config';

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      out: { type: 'string' },
      in: { type: 'string' },
      'without-sessions': { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  if (command === 'export' && values.out) {
    const withoutSessions = values['without-sessions'];
    const manifest = await exportInstall(config, values.out, { withoutSessions });
    const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Exported ${rows} rows and ${Object.keys(manifest.files).length} files (schema ${manifest.schemaVersion}) to ${values.out}` +
        (withoutSessions
          ? ' without sessions: restoring it signs everybody out. It still holds every password hash'
          : '. It grants admin access to whoever reads it') +
        ': keep it private (docs/backup-and-upgrade.md).',
    );
  } else if (command === 'import' && values.in) {
    const manifest = await importInstall(config, values.in);
    const rows = Object.values(manifest.tables).reduce((sum, table) => sum + table.rows, 0);
    console.log(`Imported ${rows} rows and ${Object.keys(manifest.files).length} files from ${values.in}`);
  } else {
    console.error('Usage: npm run export -- --out FILE [--without-sessions] | npm run import -- --in FILE');
    process.exitCode = 2;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ArchiveError || error instanceof ConfigError) console.error(error.message);
  else console.error('The Dojo backup failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

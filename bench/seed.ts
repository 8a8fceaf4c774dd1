/**
 * `npm run seed -- --users N --projects M --comments K [--data-dir DIR] [--seed S] [--password P]`
 *
 * Fills DATA_DIR (SQLite; default ./data) or the PostgreSQL database in DATABASE_URL with realistic data
 * through the server's own services (see bench/lib/seeder.ts). `--comments` is a total, spread over the
 * projects made in this run. Run it while no server uses the same data.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_BATCH_SIZE, DEFAULT_SEED_PASSWORD, seed } from './lib/seeder';

const { values } = parseArgs({
  options: {
    users: { type: 'string', default: '20' },
    projects: { type: 'string', default: '100' },
    comments: { type: 'string', default: '200' },
    'data-dir': { type: 'string' },
    seed: { type: 'string', default: '42' },
    password: { type: 'string', default: DEFAULT_SEED_PASSWORD },
    concurrency: { type: 'string' },
    batch: { type: 'string', default: String(DEFAULT_BATCH_SIZE) },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(
    'Usage: npm run seed -- --users N --projects M --comments K [--data-dir DIR] [--seed S] ' +
      '[--password P] [--concurrency C] [--batch B]\n' +
      'SQLite in --data-dir (default $DATA_DIR or ./data), or PostgreSQL when DATABASE_URL is set.\n' +
      `Users are seed.user<n>@example.com with password "${DEFAULT_SEED_PASSWORD}" unless --password.`,
  );
  process.exit(0);
}

const count = (name: string, raw: string | undefined): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number ≥ 0, got '${raw}'`);
    process.exit(2);
  }
  return value;
};

const dataDir = values['data-dir'] ?? process.env.DATA_DIR ?? './data';
const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
const started = performance.now();
const result = await seed({
  dataDir,
  databaseUrl,
  users: count('users', values.users),
  projects: count('projects', values.projects),
  comments: count('comments', values.comments),
  seed: count('seed', values.seed),
  password: values.password,
  batchSize: count('batch', values.batch),
  ...(values.concurrency ? { concurrency: count('concurrency', values.concurrency) } : {}),
  log: (line) => console.log(`seed: ${line}`),
});
const where = databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${dataDir}`;
console.log(
  `seed: done in ${((performance.now() - started) / 1000).toFixed(1)} s — ${result.users.length} users, ` +
    `${result.projectIds.length} projects, ${result.commentCount} comments in ${where}. ` +
    `Log in as ${result.users[0]?.email ?? '(no users)'} / "${values.password}".`,
);

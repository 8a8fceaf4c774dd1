import { defineConfig } from 'vitest/config';
import { WAIT_MS } from './test/support/poll';

/**
 * The suites that run again with file bytes in S3 (the integration-s3 project): the whole storage suite
 * and the SDK-shaped upload tests.
 */
const s3Files = [
  'src/server/storage/*.int.test.ts',
  'src/sdk/storage/*.int.test.ts',
  'src/sdk/attachments.int.test.ts',
  'src/sdk/attachment-limits.int.test.ts',
  'test/support/swift-s3.int.test.ts',
];

/** The S3 API's own test uses no database: it runs once, in the integration-s3 project. */
const swiftSelfTest = 'test/support/swift-s3.int.test.ts';

/**
 * Four projects (docs/architecture.md#tests): fast unit tests beside the code, and the integration suite
 * (the real server on a random port) run once on SQLite and once on PostgreSQL.
 */
const integrationFiles = ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'];

const integration = {
  include: integrationFiles,
  environment: 'node',
  // Each file boots its own server (and on PostgreSQL its own database), so files run in parallel.
  fileParallelism: true,
  // Files share a worker's loaded modules: each file still starts its own app, database and data dir, and no
  // server module keeps state outside the app it builds, so only the module loading (about 2 s of CPU per
  // file, a third of the suite's time) is saved.
  isolate: false,
  // A test's or hook's whole-time bound only matters when it hangs: a file that starts servers and runs
  // CLIs waits on conditions of WAIT_MS each, so a bound of a few such waits never decides a slow pass.
  testTimeout: 6 * WAIT_MS,
  hookTimeout: 6 * WAIT_MS,
  // `expect.poll` waits for a condition; its default 1 s bound is a timed assertion that a loaded machine
  // (CI, a fresh clone installing as it runs) can miss, so it waits as long as every other helper does.
  expect: { poll: { timeout: WAIT_MS } },
} as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    teardownTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          // A condition a unit test polls for holds as soon as it holds; only a failure waits this long.
          expect: { poll: { timeout: WAIT_MS } },
          // A few unit tests run a child process (the folder checker, a heap compaction under --expose-gc);
          // on a loaded machine those took past vitest's 5 s default while passing, so the bound only decides
          // a hang, as for the integration suite.
          testTimeout: 3 * WAIT_MS,
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration-sqlite',
          // `*.pg.int.test.ts`: scale-out suites that only make sense on PostgreSQL (several instances).
          exclude: ['**/*.pg.int.test.ts', swiftSelfTest, '**/node_modules/**'],
          env: { DOJO_TEST_DB: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration-postgres',
          exclude: [swiftSelfTest, '**/node_modules/**'],
          env: { DOJO_TEST_DB: 'postgres' },
          globalSetup: ['test/support/postgres-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          ...integration,
          name: 'integration-s3',
          include: s3Files,
          exclude: ['**/*.pg.int.test.ts', '**/node_modules/**'],
          env: { DOJO_TEST_DB: 'sqlite', DOJO_TEST_STORAGE: 's3' },
          globalSetup: ['test/support/swift-s3-global-setup.ts'],
        },
      },
    ],
  },
});

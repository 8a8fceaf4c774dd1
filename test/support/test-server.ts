import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { createApp, type DojoApp } from '../../src/server/app';
import { loadConfig, type Config } from '../../src/server/config/config';
import type { LogDestination } from '../../src/server/core/logger';
import { createTestBucket, removeTestBucket, s3StorageConfig } from './swift-s3';

/**
 * The real server on a random 127.0.0.1 port for integration tests. The database engine comes from
 * DOJO_TEST_DB (set per vitest project): 'sqlite' (default) gets a fresh temp DATA_DIR, 'postgres' a fresh
 * database on the run's throwaway cluster, so every test file is isolated and may run in parallel.
 */
export type TestDatabaseEngine = 'sqlite' | 'postgres';

export interface StartTestServerOptions {
  /** Reuse this DATA_DIR (e.g. two instances sharing secrets and blobs); the caller removes it. */
  dataDir?: string;
  /** Reuse this database (e.g. two instances on one PostgreSQL database); the caller drops it. */
  databaseUrl?: string;
  configOverrides?: Partial<Config>;
  /** Where the server's log goes (with `configOverrides.logLevel`); by default it is silent. */
  logDestination?: LogDestination;
}

export interface TestServer {
  /** Origin of the running server, e.g. `http://127.0.0.1:41234`; updated by `restart()`. */
  readonly url: string;
  readonly config: Config;
  readonly dataDir: string;
  /** Undefined on SQLite. */
  readonly databaseUrl: string | undefined;
  /** The running app; replaced by `restart()`. */
  readonly app: DojoApp;
  /** Closes the app, then removes the temp DATA_DIR / drops the database the harness created. */
  stop(): Promise<void>;
  /** Closes the app and starts a new one on the same data dir and database (same port when free). */
  restart(): Promise<{ url: string }>;
}

/**
 * Where file bytes go, from DOJO_TEST_STORAGE: 'disk' (default) or 's3' (the integration-s3 project, whose
 * globalSetup provides a Swift; each DATA_DIR gets its own bucket there, so files stay isolated).
 */
function testStorageDriver(): 'disk' | 's3' {
  const value = process.env.DOJO_TEST_STORAGE ?? 'disk';
  if (value !== 'disk' && value !== 's3') {
    throw new Error(`DOJO_TEST_STORAGE must be 'disk' or 's3', got '${value}'`);
  }
  return value;
}

/** The bucket of a DATA_DIR: instances that share a DATA_DIR share their bytes, as on disk. */
const bucketOfDataDir = (dataDir: string): string =>
  `dojo-test-${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;

function providedSwiftS3(): { endpoint: string } {
  const swift = inject('swiftS3');
  if (!swift) {
    throw new Error('DOJO_TEST_STORAGE=s3 needs the integration-s3 project (its globalSetup starts Swift)');
  }
  return swift;
}

export function testDatabaseEngine(): TestDatabaseEngine {
  const value = process.env.DOJO_TEST_DB ?? 'sqlite';
  if (value !== 'sqlite' && value !== 'postgres') {
    throw new Error(`DOJO_TEST_DB must be 'sqlite' or 'postgres', got '${value}'`);
  }
  return value;
}

/**
 * Login and signup are rate-limited per client address, and every test client is 127.0.0.1. Tests of the
 * limit itself pass `configOverrides: { authRateLimitPerMinute: n }`.
 */
const TEST_AUTH_RATE_LIMIT_PER_MINUTE = 100_000;
/**
 * Likewise for the per-user write limits: suites write hundreds of projects and comments as one user.
 * Tests of the limits pass low values in `configOverrides`.
 */
const TEST_WRITES_PER_MINUTE = 100_000;
/** Likewise for open connections per address; the cap's own test passes `maxConnectionsPerAddress`. */
const TEST_MAX_CONNECTIONS_PER_ADDRESS = 100_000;

const TEST_DATABASE_PREFIX = 'dojo_test_';
const CONNECTIONS_CLOSE_TIMEOUT_MS = 5_000;

function postgresAdminUrl(): string {
  // Provided by the integration-postgres globalSetup; undefined in other projects.
  const provided: string | undefined = inject('postgresAdminUrl');
  const url = provided ?? process.env.DOJO_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'No PostgreSQL cluster for the tests. Run them through `vitest --project integration-postgres` ' +
        '(its globalSetup starts one) or set DOJO_TEST_POSTGRES_URL to an admin connection URL.',
    );
  }
  return url;
}

function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name.startsWith(TEST_DATABASE_PREFIX) || !/^[a-z0-9_]+$/.test(name)) {
    throw new Error(`refusing to touch database '${name}': not a test database made by the harness`);
  }
  return name;
}

async function withAdminClient<T>(adminUrl: string, action: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a `dojo_test_<random>` database on the test cluster and returns its URL: empty, or with
 * `migrated` a copy of the run's migrated template (when the run made one), so the server's start finds
 * nothing to migrate.
 */
export async function createTestDatabaseUrl({ migrated = false } = {}): Promise<string> {
  const adminUrl = postgresAdminUrl();
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(8).toString('hex')}`;
  const template = migrated ? inject('postgresMigratedTemplate') : undefined;
  const from = template ? ` TEMPLATE "${template}"` : '';
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE "${name}"${from}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createTestDatabaseUrl`, closing any connection still open to it. */
export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  await withAdminClient(adminUrl.toString(), async (client) => {
    // pg's Pool.end() resolves while its sockets are still closing; a forced drop now would terminate
    // them, and the FATAL it sends would surface as an uncaught error in the closed app. Let them go.
    const deadline = Date.now() + CONNECTIONS_CLOSE_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0]?.count === 0) break;
      await delay(20);
    }
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const engine = testDatabaseEngine();
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'dojo-test-')));
  let databaseUrl = options.databaseUrl;
  let ownsDatabase = false;
  // A test that sets `blobStorage` itself manages that storage; otherwise DOJO_TEST_STORAGE decides.
  const ownBucket =
    options.configOverrides?.blobStorage === undefined && testStorageDriver() === 's3'
      ? { swift: providedSwiftS3(), bucket: bucketOfDataDir(dataDir) }
      : undefined;

  const cleanUp = async (): Promise<void> => {
    const problems: unknown[] = [];
    if (ownBucket && ownsDataDir) {
      await removeTestBucket(ownBucket.swift, ownBucket.bucket).catch((e) => problems.push(e));
    }
    if (ownsDatabase && databaseUrl) await dropTestDatabase(databaseUrl).catch((e) => problems.push(e));
    if (ownsDataDir) await rm(dataDir, { recursive: true, force: true }).catch((e) => problems.push(e));
    if (problems.length > 0) throw new AggregateError(problems, 'test server clean-up failed');
  };

  let app: DojoApp | undefined;
  let url = '';
  let config: Config;
  try {
    if (engine === 'postgres' && databaseUrl === undefined) {
      databaseUrl = await createTestDatabaseUrl({ migrated: true });
      ownsDatabase = true;
    }
    if (ownBucket) await createTestBucket(ownBucket.swift, ownBucket.bucket);
    config = {
      ...loadConfig({
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      }),
      webRoot: undefined,
      logLevel: 'silent',
      authRateLimitPerMinute: TEST_AUTH_RATE_LIMIT_PER_MINUTE,
      projectCreatesPerMinute: TEST_WRITES_PER_MINUTE,
      commentsPerMinute: TEST_WRITES_PER_MINUTE,
      uploadsPerMinute: TEST_WRITES_PER_MINUTE,
      exportsPerMinute: TEST_WRITES_PER_MINUTE,
      maxConnectionsPerAddress: TEST_MAX_CONNECTIONS_PER_ADDRESS,
      ...(ownBucket ? { blobStorage: s3StorageConfig(ownBucket.swift, ownBucket.bucket) } : {}),
      ...options.configOverrides,
    };
    app = await createApp(config, { logDestination: options.logDestination });
    url = await app.listen();
  } catch (error) {
    await app?.close().catch(() => undefined);
    await cleanUp().catch(() => undefined);
    throw error;
  }

  let running: DojoApp | undefined = app;
  let stopped = false;

  const closeRunning = async (): Promise<void> => {
    const current = running;
    running = undefined;
    await current?.close();
  };

  const server: TestServer = {
    get url() {
      return url;
    },
    config,
    dataDir,
    databaseUrl,
    get app() {
      if (!running) throw new Error('the test server is not running');
      return running;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await closeRunning();
      } finally {
        await cleanUp();
      }
    },
    async restart() {
      if (stopped) throw new Error('the test server was stopped');
      await closeRunning();
      // Same port when it is still free, so clients that remember the URL (and its cookies) reconnect.
      const port = Number(new URL(url).port);
      let next = await createApp({ ...config, port }, { logDestination: options.logDestination });
      try {
        url = await next.listen();
      } catch {
        await next.close().catch(() => undefined);
        next = await createApp({ ...config, port: 0 }, { logDestination: options.logDestination });
        url = await next.listen();
      }
      running = next;
      return { url };
    },
  };
  return server;
}

export interface TwoInstances {
  first: TestServer;
  second: TestServer;
  /** The shared database, for tests that look at it directly. */
  databaseUrl: string;
  /** Stops both instances, then drops the database. */
  stop(): Promise<void>;
}

/** Scale-out: two instances on one fresh PostgreSQL database (the `*.pg.int.test.ts` suites). */
export async function startTwoInstances(configOverrides: Partial<Config> = {}): Promise<TwoInstances> {
  if (testDatabaseEngine() !== 'postgres') throw new Error('two instances need DOJO_TEST_DB=postgres');
  const databaseUrl = await createTestDatabaseUrl();
  // Under DOJO_TEST_STORAGE=s3 both instances must see one bucket, as they see one database.
  const sharedBucket =
    configOverrides.blobStorage === undefined && testStorageDriver() === 's3'
      ? { swift: providedSwiftS3(), bucket: await createTestBucket(providedSwiftS3()) }
      : undefined;
  const overrides = sharedBucket
    ? { ...configOverrides, blobStorage: s3StorageConfig(sharedBucket.swift, sharedBucket.bucket) }
    : configOverrides;
  const first = await startTestServer({ databaseUrl, configOverrides: overrides });
  const second = await startTestServer({ databaseUrl, configOverrides: overrides });
  return {
    first,
    second,
    databaseUrl,
    async stop() {
      await first.stop();
      await second.stop();
      await dropTestDatabase(databaseUrl);
      if (sharedBucket) await removeTestBucket(sharedBucket.swift, sharedBucket.bucket);
    },
  };
}

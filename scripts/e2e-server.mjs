// The production server for the Playwright suite (playwright.config.ts `webServer`); run it with
// `node --import tsx scripts/e2e-server.mjs`. It never rebuilds (`npm test` already built dist/web) and
// listens on PORT/HOST with a fresh temp DATA_DIR, removed again on exit. It serves a copy of dist/web
// taken at start, so a rebuild during the run cannot pull the assets from under the browser.
//
// It does what src/server/main.ts does (loadConfig + createApp + listen) with one override: every e2e
// client is 127.0.0.1, so the per-address login/signup rate limit would throttle the suite itself. The
// limit has its own integration tests.
import { cpSync, existsSync, fstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const E2E_AUTH_RATE_LIMIT_PER_MINUTE = 10_000;
// Likewise the per-user write limits: one e2e user may seed dozens of projects and comments.
const E2E_WRITES_PER_MINUTE = 10_000;
// Every browser context of both workers connects from 127.0.0.1 too; the connection cap has its own tests.
const E2E_MAX_CONNECTIONS_PER_ADDRESS = 10_000;

if (!existsSync(path.resolve('dist/web/index.html'))) {
  console.error('e2e-server: dist/web/index.html is missing; build the web app first (npm run build).');
  process.exit(1);
}

// A test that restarts the server on the same data (e2e/restart.spec.ts) names the dir in E2E_TEMP_DIR:
// the data then outlives this process, and that test removes the dir.
const keptDir = process.env.E2E_TEMP_DIR;
const tempDir = keptDir ?? mkdtempSync(path.join(os.tmpdir(), 'dojo-e2e-'));
if (!keptDir) process.on('exit', () => rmSync(tempDir, { recursive: true, force: true }));
const dataDir = path.join(tempDir, 'data');
const webRoot = path.join(tempDir, 'web');
mkdirSync(dataDir, { recursive: true });
cpSync(path.resolve('dist/web'), webRoot, { recursive: true });

const { loadConfig } = await import('../src/server/config/config.ts');
const { createApp } = await import('../src/server/app.ts');

const env = { ...process.env, DATA_DIR: dataDir };
// The suite runs on the embedded SQLite default unless E2E_DATABASE_URL names a PostgreSQL database;
// a DATABASE_URL from the developer's shell must never receive test data.
delete env.DATABASE_URL;
if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;

let app;
try {
  const config = {
    ...loadConfig(env),
    webRoot,
    authRateLimitPerMinute: E2E_AUTH_RATE_LIMIT_PER_MINUTE,
    projectCreatesPerMinute: E2E_WRITES_PER_MINUTE,
    commentsPerMinute: E2E_WRITES_PER_MINUTE,
    uploadsPerMinute: E2E_WRITES_PER_MINUTE,
    exportsPerMinute: E2E_WRITES_PER_MINUTE,
    maxConnectionsPerAddress: E2E_MAX_CONNECTIONS_PER_ADDRESS,
  };
  app = await createApp(config);
  const url = await app.listen();
  console.log(`e2e-server: listening on ${url} (DATA_DIR ${dataDir})`);
} catch (error) {
  console.error('e2e-server: failed to start', error);
  await app?.close().catch(() => undefined);
  process.exit(1);
}

let closing = false;
const shutDown = async (signal) => {
  if (closing) return;
  closing = true;
  const force = setTimeout(() => process.exit(1), 5_000);
  force.unref();
  try {
    await app.close();
  } catch (error) {
    console.error(`e2e-server: error while closing on ${signal}`, error);
  }
  process.exit(0);
};
process.on('SIGTERM', () => void shutDown('SIGTERM'));
process.on('SIGINT', () => void shutDown('SIGINT'));

// If Playwright dies without stopping us (a killed runner), do not linger on the port: Playwright gives
// its web server a stdin pipe (a socket pair) that reaches end-of-file when Playwright is gone; and if
// the shell exec'd us, we get re-parented.
const stdin = fstatSync(0);
if (stdin.isFIFO() || stdin.isSocket()) {
  process.stdin.on('end', () => void shutDown('end of stdin'));
  process.stdin.resume();
}
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutDown('parent exit');
}, 1_000).unref();

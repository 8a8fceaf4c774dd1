import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './test/support/chromium';
import { WAIT_MS } from './test/support/poll';

/**
 * End-to-end tests: Debian's Chromium against the production build on a real server (see
 * docs/architecture.md#tests). `npm test` builds before this runs, so the web server command never rebuilds.
 */
// E2E_PORT lets two runs (e.g. a developer's and a clean-clone check) share one machine.
const E2E_PORT = Number(process.env.E2E_PORT ?? 4317);
const baseURL = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  // Every test makes its own users, so tests are independent and can spread over both workers.
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  reporter: 'list',
  // A whole test's bound, like every wait, is for a loaded machine: a fresh clone on 2 busy cores ran
  // multi-step tests past 30 s. It only matters when a test hangs.
  timeout: 6 * WAIT_MS,
  // Assertions retry until they hold, up to the one wait bound for a loaded machine (test/support/poll.ts).
  expect: { timeout: WAIT_MS },
  use: {
    baseURL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM_EXECUTABLE,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: {
    command: 'node --import tsx scripts/e2e-server.mjs',
    url: `${baseURL}/api/health`,
    // A short presence grace period so "offline after the last tab closes" is observable in seconds.
    env: { PORT: String(E2E_PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PRESENCE_GRACE_MS: '4000' },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM lets the server close its database and remove its temp DATA_DIR.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});

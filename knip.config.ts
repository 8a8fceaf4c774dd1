import type { KnipConfig } from 'knip';

/**
 * knip (part of `npm run lint`) reports unused files, exports and dependencies
 * (docs/architecture.md#tooling). Everything reachable from an entry counts as used, tests included.
 */
const config: KnipConfig = {
  // Also entries, through knip's plugins: src/server/main.ts and bench/run.ts, bench/seed.ts (package.json
  // scripts), src/web/app/main.tsx (src/web/index.html), the test files (vitest and playwright configs).
  entry: [
    // The SDK's public API: a consumer may import what our web app does not (e.g. `listAll`).
    'src/sdk/index.ts',
    'src/sdk/storage/index.ts',
    'scripts/*.{mjs,ts}',
  ],
  project: ['src/**/*.{ts,tsx}', 'test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.{mjs,ts}'],
  // Debian packages, not npm ones: strace for the durability test (scripts/ensure-system-deps.mjs installs
  // it), util-linux's prlimit for the 10,000-tab bench's open-file limit (bench/fanout.ts).
  ignoreBinaries: ['strace', 'prlimit'],
};

export default config;

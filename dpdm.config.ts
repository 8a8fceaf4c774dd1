import type { Config } from 'dpdm';

/**
 * `npx dpdm` (part of `npm run lint`): no import cycles, type-only imports included, since a
 * cycle of types still ties two modules' designs together (docs/architecture.md#tooling).
 */
const config: Config = {
  files: [
    'src/**/*.{ts,tsx}',
    'test/**/*.ts',
    'e2e/**/*.ts',
    'bench/**/*.ts',
    'scripts/**/*.{mjs,ts}',
    '*.config.ts',
  ],
  tsconfig: 'tsconfig.json',
  tree: false,
  warning: false,
  circular: true,
  progress: false,
  exitCode: 'circular:1',
};

export default config;

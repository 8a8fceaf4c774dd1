// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Imports flow one way: web → sdk → common, server → common (docs/decisions/001-layout-and-stack.md). */
const forbid = (/** @type {string[]} */ groups, /** @type {string} */ message) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/common/**'],
    rules: forbid(
      ['**/sdk/**', '**/server/**', '**/web/**', 'node:*', 'react', 'fastify'],
      'common is isomorphic and imports nothing of ours but common.',
    ),
  },
  {
    files: ['src/sdk/**'],
    rules: forbid(['**/server/**', '**/web/**', 'react'], 'sdk imports only common.'),
  },
  {
    files: ['src/server/**'],
    rules: forbid(['**/web/**', '**/sdk/**'], 'server imports only common.'),
  },
  {
    files: ['src/web/**'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...forbid(['**/server/**', 'node:*'], 'web talks to the server only through the sdk.'),
    },
  },
  // Server layers (docs/architecture.md#layers-and-folders). A later block's no-restricted-imports replaces
  // an earlier one for the same file, so each zone repeats the server's own rule.
  {
    files: ['src/server/**/*-service.ts'],
    rules: forbid(
      ['**/web/**', '**/sdk/**', 'fastify', '@fastify/*', '**/http/**'],
      'services know nothing of HTTP: no fastify, nothing from src/server/http.',
    ),
  },
  {
    files: ['src/server/**/*-repository.ts'],
    rules: forbid(
      ['**/web/**', '**/sdk/**', 'fastify', '@fastify/*', '**/http/**', '**/*-service'],
      'repositories hold SQL only: no fastify, nothing from src/server/http, no services.',
    ),
  },
  {
    files: ['src/server/shared/**'],
    ignores: ['**/*.test.ts'],
    rules: forbid(
      [
        '**/web/**',
        '**/sdk/**',
        ...['auth', 'users', 'projects', 'presence', 'live', 'storage', 'rate-limits', 'http'].map(
          (feature) => `../${feature}/*`,
        ),
      ],
      'src/server/shared is used by every feature and imports none (only common and libraries).',
    ),
  },
);

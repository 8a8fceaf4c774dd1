// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import checkFile from 'eslint-plugin-check-file';
import globals from 'globals';

/** Imports flow one way: web → sdk → common, server → common (docs/decisions/001-layout-and-stack.md). */
const forbid = (/** @type {string[]} */ groups, /** @type {string} */ message) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group: [group], message })) }],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/'] },
  // The benchmarks' scratch space (compiled servers, partial reports), ignored by git too.
  { ignores: ['.tmp/'] },
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
  {
    // File and folder names are kebab-case; `.int.test.ts`, `.spec.ts`, `.testing.ts` are suffixes, not names.
    files: ['{src,test,e2e,bench,scripts}/**/*.{ts,tsx,js,mjs}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '{src,test,e2e,bench,scripts}/**/': 'KEBAB_CASE' }],
    },
  },
);

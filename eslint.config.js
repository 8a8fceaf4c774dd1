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

/** The web app reaches the server only through the sdk; the web zones below repeat it, as a later block's
 * `no-restricted-imports` replaces an earlier one's for the same files. */
const webViaSdk = {
  group: ['**/server/**', 'node:*'],
  message: 'web talks to the server only through the sdk.',
};

/** Zones inside the web app (docs/architecture.md#the-web-app-srcweb): `app/` is the composition root. */
const webZone = (/** @type {{ regex: string, message: string }[]} */ zones) => ({
  'no-restricted-imports': ['error', { patterns: [webViaSdk, ...zones] }],
});
const notApp = {
  regex: '^\\.{1,2}/(.*/)?app/',
  message: 'app/ is the composition root: shared client code lives in lib/, hooks/ or components/.',
};

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
      ...webZone([]),
    },
  },
  {
    files: ['src/web/lib/**', 'src/web/hooks/**', 'src/web/components/**'],
    rules: webZone([
      notApp,
      { regex: '^\\.{1,2}/(.*/)?features/', message: 'shared client code does not depend on a feature.' },
    ]),
  },
  {
    files: ['src/web/features/**'],
    rules: webZone([
      notApp,
      {
        // `../x/…` from a feature's folder is a sibling feature; `../../…` reaches shared code.
        regex: '^\\.\\./[^./]|^\\.{1,2}/(.*/)?features/',
        message: 'features do not import each other: move what they share to lib/, hooks/ or components/.',
      },
    ]),
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
  // Server layers (docs/architecture.md#layers-and-folders). A later block's no-restricted-imports replaces
  // an earlier one for the same file, so each zone repeats the server's own rule.
  //
  // The service zone is every server file but the HTTP edge, whatever its name: a file that holds rules
  // (`*-service.ts`, notifications/due-reminders.ts, uploads/resumable-uploads.ts, …) is covered as soon as
  // it exists. The edge is named by its role: routes and their docs, http/, the composition root, tests,
  // and the few helpers that read a request or write a reply for routes. Repositories and core/ have
  // stricter zones of their own below.
  {
    files: ['src/server/**/*.ts'],
    ignores: [
      '**/*-routes.ts',
      '**/*-route-docs.ts',
      'src/server/http/**',
      'src/server/{app,main,services}.ts',
      '**/*.test.ts',
      '**/testing/**',
      // The HTTP edge outside http/: the live socket's upgrade, the signup and profile form reader, the
      // viewer read from a request, the request-id hooks.
      'src/server/live/live-upgrade.ts',
      'src/server/auth/profile-form.ts',
      'src/server/auth/viewer.ts',
      'src/server/ops/request-ids.ts',
    ],
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
    files: ['src/server/core/**'],
    ignores: ['**/*.test.ts'],
    rules: forbid(
      [
        '**/web/**',
        '**/sdk/**',
        ...[
          'auth',
          'users',
          'projects',
          'presence',
          'live',
          'storage',
          'rate-limits',
          'http',
          'team',
          'account',
        ].map((feature) => `../${feature}/*`),
      ],
      'src/server/core is used by every feature and imports none (only common and libraries).',
    ),
  },
);

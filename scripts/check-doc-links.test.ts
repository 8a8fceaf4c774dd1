import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'check-doc-links.mjs');

/**
 * The fixtures are spelled in parts (the section sign escaped, paths joined), so this file does not itself
 * hold the bare sections and missing paths it makes the script find.
 */
const S = '\u00a7';
const at = (...parts: string[]): string => parts.join('/');
const PROTOCOL = at('docs', 'protocol.md');
const MD = '.md';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dojo-doc-links-'));
  await mkdir(path.join(root, 'docs'));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, PROTOCOL), '# Protocol\n\n## 4. Operations\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The problems the script prints for a tree of `files` beside the protocol document (not a git work tree). */
async function problemsWith(files: Record<string, string>): Promise<string[]> {
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(root, name), text);
  try {
    await run(process.execPath, [SCRIPT, '--root', root]);
    return [];
  } catch (error) {
    const { stdout } = error as { stdout: string };
    return stdout.split('\n').filter(Boolean);
  }
}

it('accepts a section after its document, an RFC, a list after one name, a Markdown link or inline code', async () => {
  const problems = await problemsWith({
    [at('src', 'named.ts')]: [
      `/** Offsets (${PROTOCOL} ${S}4.8); tokens (RFC 9110 ${S}5.6.2). */`,
      `/** Both (${PROTOCOL} ${S}5.2, ${S}5.3 and ${S}6). */`,
    ].join('\n'),
    [at('docs', 'linked.md')]: [
      '# Linked',
      '',
      `See [${S}4](protocol${MD}#4-operations), [protocol ${S}4](protocol${MD}#4-operations), \`${S}4\`.`,
    ].join('\n'),
  });
  expect(problems).toEqual([]);
});

it('refuses a bare section in code and in Markdown prose, naming the file, line and section', async () => {
  const problems = await problemsWith({
    [at('src', 'bare.ts')]: `/** Offsets (${PROTOCOL} ${S}4.8). */\n/** Finalize (${S}5.3): all bytes. */\n`,
    [at('docs', 'bare.md')]: `# Bare\n\nAs ${S}4 says.\n`,
  });
  const advice = `name its document, as in '${at('docs', 'storage-protocol.md')} ${S}4.8'`;
  expect(problems).toEqual([
    `${at('docs', 'bare.md')}:3: bare '${S}4': ${advice}`,
    `${at('src', 'bare.ts')}:2: bare '${S}5.3': ${advice}`,
  ]);
});

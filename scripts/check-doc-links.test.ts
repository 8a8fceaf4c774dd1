import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, expect, it } from 'vitest';

const run = promisify(execFile);
const SCRIPT = path.join(import.meta.dirname, 'check-doc-links.mjs');

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dojo-doc-links-'));
  await mkdir(path.join(root, 'docs'));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'docs/protocol.md'), '# Protocol\n\n## 4. Operations\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The problems the script prints for a tree of `files` beside docs/protocol.md (not a git work tree). */
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

it('accepts a § after its document, an RFC, a list after one name, a Markdown link or inline code', async () => {
  const problems = await problemsWith({
    'src/named.ts': [
      '/** Offsets (docs/protocol.md §4.8); tokens (RFC 9110 §5.6.2). */',
      '/** Both (docs/protocol.md §5.2, §5.3 and §6). */',
    ].join('\n'),
    'docs/linked.md':
      '# Linked\n\nSee [§4](protocol.md#4-operations), [protocol §4](protocol.md#4-operations), `§4`.\n',
  });
  expect(problems).toEqual([]);
});

it('refuses a bare § in code and in Markdown prose, naming the file, line and section', async () => {
  const problems = await problemsWith({
    'src/bare.ts': '/** Offsets (docs/protocol.md §4.8). */\n/** Finalize (§5.3): all bytes. */\n',
    'docs/bare.md': '# Bare\n\nAs §4 says.\n',
  });
  expect(problems).toEqual([
    "docs/bare.md:3: bare '§4': name its document, as in 'docs/storage-protocol.md §4.8'",
    "src/bare.ts:2: bare '§5.3': name its document, as in 'docs/storage-protocol.md §4.8'",
  ]);
});

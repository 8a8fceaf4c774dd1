import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverBuildOptions } from './build-server';

let outdir: string;

beforeAll(async () => {
  outdir = await mkdtemp(path.join(os.tmpdir(), 'dojo-build-'));
  await build({ ...serverBuildOptions({ main: 'src/server/main.ts' }, outdir), sourcemap: false });
}, 60_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

/** The bundle's entry and every chunk it imports statically: the code a server runs at start. */
async function loadedAtStart(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const pending = [path.join(outdir, 'main.mjs')];
  for (let file = pending.pop(); file; file = pending.pop()) {
    if (files.has(file)) continue;
    const source = await readFile(file, 'utf8');
    files.set(file, source);
    // Static imports only: `import("./chunks/…")` loads when called.
    for (const match of source.matchAll(/(?:^|[;}\n])\s*import\s*(?:[^"'();]*?from\s*)?"(\.[^"]+)"/g)) {
      pending.push(path.resolve(path.dirname(file), match[1] ?? ''));
    }
  }
  return files;
}

/** The deferred modules' own `require`, inside the function that runs on first use. */
const DEFERRED_REQUIRE = /real=\(\)=>loaded\d*\?\?=__require\("node:\w+"\)/g;

it('loads at start no package and no node module that an idle SQLite server does not use', async () => {
  const atStart = [...(await loadedAtStart()).values()].join('\n');
  // Markers first, so a change in how esbuild names bundled packages cannot make this pass by itself.
  expect(atStart).toContain('node_modules/fastify/');
  expect(atStart).toContain('node_modules/better-sqlite3/lib/');
  const unused = ['pg', 'glob', 'nodemailer', 'prom-client', '@aws-sdk', '@simplewebauthn'];
  expect(unused.filter((name) => atStart.includes(`node_modules/${name}/`))).toEqual([]);
  const deferred = ['http2', 'https', 'tls', 'zlib'].filter((name) =>
    new RegExp(`require\\("(node:)?${name}"\\)`).test(atStart.replaceAll(DEFERRED_REQUIRE, '')),
  );
  expect(deferred).toEqual([]);
});

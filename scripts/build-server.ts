/**
 * Compiles the server for `npm start` (dist/server/main.mjs), and gives the bench the same esbuild options
 * so it measures the server as it runs in production (bench/lib/server-process.ts).
 *
 * The dependencies are bundled in, whitespace and syntax minified, because an idle server otherwise keeps
 * every package's source text in its heap (docs/decisions/030-idle-footprint-cuts.md). Identifiers are
 * kept, so stack traces name the real functions. Code the server loads with `import()` (pg, nodemailer,
 * the S3 client, prom-client) goes into chunks of its own that load only on first use. better-sqlite3 is a
 * native addon and stays in node_modules. The source map is written next to the bundle for
 * `node --enable-source-maps` when debugging; `npm start` does not load it (≈ 16 MiB of RSS).
 *
 * Usage: tsx scripts/build-server.ts
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

/** The node flags of `npm start` (package.json), e.g. `--max-semi-space-size`: how production runs the bundle. */
export function startNodeFlags(): string[] {
  return startScript()
    .split(/\s+/)
    .filter((word) => word.startsWith('--'));
}

/** `npm start`'s command line, from package.json. */
export function startScript(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  return packageJson.scripts.start;
}

export function serverBuildOptions(entryPoints: Record<string, string>, outdir: string): BuildOptions {
  return {
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3'],
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    // Bundled CommonJS packages call require() for node's built-in modules; an ES module has none.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    logLevel: 'warning',
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
  const outdir = root('../dist/server');
  // Chunk names carry a content hash: without this, old chunks would pile up.
  await rm(outdir, { recursive: true, force: true });
  await build(serverBuildOptions({ main: root('../src/server/main.ts') }, outdir));
}

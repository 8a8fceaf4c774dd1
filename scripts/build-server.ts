/**
 * Compiles the server for `npm start` (dist/server/main.mjs), and gives the bench the same esbuild options
 * so it measures the server as it runs in production (bench/lib/server-process.ts).
 *
 * The dependencies are bundled in, whitespace and syntax minified, because an idle server otherwise keeps
 * every package's source text in its heap (docs/decisions/030-idle-footprint-cuts.md). Identifiers are
 * kept, so stack traces name the real functions. Code the server loads with `import()` (pg, nodemailer,
 * the S3 client, prom-client) goes into chunks of its own that load only on first use. better-sqlite3's
 * JavaScript is bundled too; only its compiled addon is loaded from node_modules, by its path
 * (src/server/db/sqlite-file.ts). The source map is written next to the bundle for
 * `node --enable-source-maps` when debugging; `npm start` does not load it (≈ 16 MiB of RSS).
 *
 * Usage: tsx scripts/build-server.ts
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';

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
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    // Bundled CommonJS packages call require() for node's built-in modules; an ES module has none.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);",
    },
    logLevel: 'warning',
    plugins: [deferredBuiltins, globOnFirstUse],
  };
}

/**
 * `glob`, which `@fastify/static` requires at start but calls only to list files for per-file routes (the
 * server serves its files through one wildcard route), goes into a chunk of its own that loads on the first
 * call (docs/decisions/039-no-driver-at-start.md).
 */
const globOnFirstUse: Plugin = {
  name: 'glob-on-first-use',
  setup(build) {
    build.onResolve({ filter: /^glob$/ }, (args) =>
      /[\\/]@fastify[\\/]static[\\/]/.test(args.importer)
        ? { path: 'glob', namespace: 'glob-on-first-use', pluginData: path.dirname(args.importer) }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'glob-on-first-use' }, (args) => ({
      loader: 'js',
      // The real `glob` is the one @fastify/static would have loaded.
      resolveDir: args.pluginData as string,
      contents: "export const glob = async (...args) => (await import('glob')).glob(...args);",
    }));
  },
};

/**
 * node modules loaded when first used rather than when a package requires them. Fastify requires `https`
 * and `http2` for servers it is not asked to make; `ws` requires `tls` for client connections and `zlib`
 * for compression, neither of which the server uses. Each is replaced by an object that requires the real module on its first property access
 * (docs/decisions/039-no-driver-at-start.md).
 */
const DEFERRED_BUILTINS = /^(node:)?(http2|https|tls|zlib)$/;
const deferredBuiltins: Plugin = {
  name: 'deferred-builtins',
  setup(build) {
    build.onResolve({ filter: DEFERRED_BUILTINS }, (args) =>
      args.namespace === 'deferred-builtin'
        ? { path: args.path, external: true }
        : { path: args.path.replace(/^node:/, ''), namespace: 'deferred-builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, (args) => ({
      loader: 'js',
      contents: `let loaded;
const real = () => (loaded ??= require('node:${args.path}'));
module.exports = new Proxy({}, {
  get: (_, key) => real()[key],
  has: (_, key) => key in real(),
  ownKeys: () => Reflect.ownKeys(real()),
  getOwnPropertyDescriptor: (_, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
});`,
    }));
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
  const outdir = root('../dist/server');
  // Chunk names carry a content hash: without this, old chunks would pile up.
  await rm(outdir, { recursive: true, force: true });
  await build(serverBuildOptions({ main: root('../src/server/main.ts') }, outdir));
}

import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

/** The API server that `scripts/dev.mjs` starts next to Vite. */
const API_ORIGIN = 'http://127.0.0.1:3000';

// The Host header is kept as the browser sent it (no changeOrigin), so the server's Origin check
// (CSRF) and the download URLs it derives from the request both see the Vite origin.
const api: ProxyOptions = { target: API_ORIGIN };

// react-router's package exports name only its development build, whose dev-only warnings (and the checks
// behind them) would ship; builds take its production build, identical but for those
// (https://github.com/remix-run/react-router/issues/12532).
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/** Text assets worth compressing; fonts (woff2) and images already are. */
const COMPRESSIBLE = /\.(?:js|css|svg)$/;
/** Below this, compression saves less than the Content-Encoding header costs. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every text asset of the build, at the highest levels: done once per build,
 * the server then sends them as they are (@fastify/static `preCompressed`) at no CPU cost per request.
 */
function precompressAssets(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipAsync = promisify(gzip);
  return {
    name: 'dojo-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? '';
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const bytes = await readFile(file);
          if (bytes.byteLength < MIN_COMPRESS_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzipAsync(bytes, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

export default defineConfig(({ command }) => ({
  // Resolved from this file, not the working directory; outDir below is relative to it.
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react(), precompressAssets()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Never turn assets into data: URIs: the CSP only trusts files served by the app itself.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // zod builds schemas with calls the bundler cannot prove pure, so a module that builds one keeps
      // zod in the bundle even when nothing uses that schema (src/common/users.ts: the users panel's
      // query sits beside `UserProfileSchema`). Every `z.…` call of ours builds a schema and does nothing
      // else; a call made for its effect, such as `z.config(…)` (we make none), would be dropped.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Only the forms validate: zod is one chunk that the screens with a form load, not the entry.
        // The parts a project list is drawn with (the dashboard's, and the calendar's and the completed
        // list's that share them) are one chunk: one request and one compression context on the first visit,
        // not one per shared component.
        codeSplitting: {
          groups: [
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            {
              name: 'list-parts',
              test: /[\\/]src[\\/]web[\\/](components[\\/](filter-bar|due-status|avatar-list|export-links))\b/,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': api,
      '/v0': api,
      '/live': { ...api, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': api,
      '/v0': api,
      '/live': { ...api, ws: true },
    },
  },
}));

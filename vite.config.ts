import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

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

export default defineConfig(({ command }) => ({
  // Resolved from this file, not the working directory; outDir below is relative to it.
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react()],
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
        codeSplitting: { groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ }] },
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

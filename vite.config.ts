import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

/** The API server that `scripts/dev.mjs` starts next to Vite. */
const API_ORIGIN = 'http://127.0.0.1:3000';

// The Host header is kept as the browser sent it (no changeOrigin), so the server's Origin check
// (CSRF) and the download URLs it derives from the request both see the Vite origin.
const api: ProxyOptions = { target: API_ORIGIN };

export default defineConfig({
  // Resolved from this file, not the working directory; outDir below is relative to it.
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Never turn assets into data: URIs: the CSP only trusts files served by the app itself.
    assetsInlineLimit: 0,
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
});

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
let webRoot: string;
const INDEX_HTML = '<!doctype html><html><head><title>The Dojo</title></head><body></body></html>';
const BIG_SCRIPT = `console.log(${JSON.stringify('the dojo '.repeat(500))});`;

/** A GET that shows the bytes as sent (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  // A stand-in web build: the real one is exercised end to end by the Playwright suite.
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'dojo-web-'));
  await mkdir(path.join(webRoot, 'assets'));
  await writeFile(path.join(webRoot, 'index.html'), INDEX_HTML);
  await writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
  // The build compresses index.html too when it is large enough: the CSP must not depend on that.
  await writeFile(path.join(webRoot, 'index.html.br'), brotliCompressSync(INDEX_HTML));
  // As the build writes them (vite.config.ts): .br and .gz beside a text asset.
  const bigScript = path.join(webRoot, 'assets', 'big-def456.js');
  await writeFile(bigScript, BIG_SCRIPT);
  await writeFile(`${bigScript}.br`, brotliCompressSync(BIG_SCRIPT));
  await writeFile(`${bigScript}.gz`, gzipSync(BIG_SCRIPT));
  server = await startTestServer({ configOverrides: { webRoot } });
});
afterAll(async () => {
  await server.stop();
  await rm(webRoot, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each(['/', '/create', '/login', '/signup', '/projects/some-id'])(
    'serves index.html for the spec route %s',
    async (route) => {
      const response = await fetch(`${server.url}${route}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<title>The Dojo</title>');
    },
  );

  it('answers other paths with the app (which shows its not-found page) and status 404', async () => {
    const response = await fetch(`${server.url}/no/such/page`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('<title>The Dojo</title>');
  });

  it('keeps API 404s as JSON', async () => {
    const response = await fetch(`${server.url}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not-found');
  });

  it('sends a strict CSP whose style nonce is the one handed to the page, fresh per request', async () => {
    const nonces = [];
    for (let index = 0; index < 2; index += 1) {
      const response = await fetch(`${server.url}/`);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(await response.text())?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it('sends /index.html with the same CSP and nonce as /, never as a plain file', async () => {
    for (const headers of [{}, { 'accept-encoding': 'gzip, deflate, br' }] as Record<string, string>[]) {
      const response = await rawGet(`${server.url}/index.html`, headers);
      const csp = String(response.headers['content-security-policy'] ?? '');
      expect(csp).toMatch(/script-src 'self'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      const html =
        response.headers['content-encoding'] === 'br' ? brotliDecompressSync(response.body) : response.body;
      const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(html.toString())?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
    }
  });

  it('serves hashed assets as immutable, with security headers', async () => {
    const response = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it("sends the build's precompressed asset the client accepts, brotli first, else the plain file", async () => {
    const url = `${server.url}/assets/big-def456.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_SCRIPT);
    expect(br.body.byteLength).toBeLessThan(BIG_SCRIPT.length / 10);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_SCRIPT);

    const plain = await rawGet(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG_SCRIPT);
  });
});

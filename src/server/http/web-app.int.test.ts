import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/test-server';

let server: TestServer;
let webRoot: string;

beforeAll(async () => {
  // A stand-in web build: the real one is exercised end to end by the Playwright suite.
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'dojo-web-'));
  await mkdir(path.join(webRoot, 'assets'));
  await writeFile(
    path.join(webRoot, 'index.html'),
    '<!doctype html><html><head><title>The Dojo</title></head><body></body></html>',
  );
  await writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
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

  it('serves hashed assets as immutable, with security headers', async () => {
    const response = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

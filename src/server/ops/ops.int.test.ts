import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQuery, messages, type Project } from '../../common';
import { createProjectAs, errorOf, LiveRecorder, signUpClient } from '../../../test/support/clients';
import { postJson, uniqueEmail } from '../../../test/support/fixtures';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { signUpStorageUser, uploadMultipart, withDatabase } from '../storage/testing/storage-http';
import { sql } from 'kysely';

const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef';
const RATE_LIMIT = 3;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    configOverrides: { metricsToken: METRICS_TOKEN, authRateLimitPerMinute: RATE_LIMIT },
  });
});
afterAll(async () => {
  await server.stop();
});

/** Moves the file store away for the duration of `during`, so it can neither be written nor checked. */
async function withStorageAway<T>(during: () => Promise<T>): Promise<T> {
  const storageDir = path.join(server.dataDir, 'storage');
  await rename(storageDir, `${storageDir}-away`);
  try {
    return await during();
  } finally {
    await rename(`${storageDir}-away`, storageDir);
  }
}

async function scrape(): Promise<string> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of the first sample named `name` whose labels include every `labels` pair; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labelText = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => labelText.includes(`${key}="${value}"`))) {
      return Number(match[3]);
    }
  }
  return 0;
}

async function waitForSample(
  name: string,
  labels: Record<string, string>,
  condition: (value: number) => boolean,
): Promise<void> {
  let last = 0;
  await pollUntil(
    async () => condition((last = sample(await scrape(), name, labels))),
    WAIT_MS,
    () => `${name} ${JSON.stringify(labels)} stayed at ${last}`,
  );
}

describe('request ids', () => {
  it('gives every answer an id, keeps a sane one from the proxy and replaces anything else', async () => {
    const fresh = await fetch(`${server.url}/api/health`);
    const freshId = fresh.headers.get('x-request-id');
    expect(freshId).toMatch(/^[\w-]{8,}$/);
    const again = await fetch(`${server.url}/api/health`);
    expect(again.headers.get('x-request-id')).not.toBe(freshId);

    const kept = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': 'edge-42.abc:7' } });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.abc:7');

    for (const insane of ['has space', 'x'.repeat(129), 'a\u00e9b', '']) {
      const replaced = await fetch(`${server.url}/api/health`, { headers: { 'x-request-id': insane } });
      const id = replaced.headers.get('x-request-id');
      expect(id, JSON.stringify(insane)).toBeTruthy();
      expect(id).not.toBe(insane);
    }
  });

  it('shows the id in JSON error bodies, on the API, on unknown routes and on the storage protocol', async () => {
    const login = await postJson(server.url, '/api/auth/login', { email: 'nobody', password: '' });
    expect(login.status).toBe(400);
    const loginBody = (await login.json()) as { error: { requestId?: string } };
    expect(loginBody.error.requestId).toBe(login.headers.get('x-request-id'));

    const missing = await fetch(`${server.url}/api/no-such-thing`, {
      headers: { 'x-request-id': 'trace-1' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 'not-found', message: messages.notFound, requestId: 'trace-1' },
    });

    const storage = await fetch(`${server.url}/v0/b/dojo/o/missing`, {
      headers: { 'x-request-id': 'trace-2' },
    });
    expect(storage.status).toBe(401);
    expect(((await storage.json()) as { error: { requestId?: string } }).error.requestId).toBe('trace-2');
  });

  it('hands the id to SDK callers on DojoError', async () => {
    const { client } = await signUpClient(server.url, 'ids');
    try {
      const error = await errorOf(() => client.projects.get('no-such-project'));
      expect(error.code).toBe('not-found');
      expect(error.requestId).toMatch(/^[\w-]{8,}$/);
    } finally {
      client.close();
    }
  });
});

describe('readiness', () => {
  it('is ready when the database, the file store and the migrations are', async () => {
    const response = await fetch(`${server.url}/api/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', storage: 'ok', migrations: 'ok' },
    });
  });

  it('answers 503 naming the failed check while storage is unreachable; liveness stays 200', async () => {
    const [ready, health] = await withStorageAway(async () => [
      await fetch(`${server.url}/api/ready`),
      await fetch(`${server.url}/api/health`),
    ]);
    expect(health.status).toBe(200);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { error: { code: string; fields: Record<string, string> } };
    expect(body.error.code).toBe('unavailable');
    expect(Object.keys(body.error.fields)).toEqual(['storage']);
    expect(body.error.fields.storage).toBe('failed (ENOENT)');
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
  });

  it('answers 503 naming the migration this build expects while the database lacks it', async () => {
    const ready = await withDatabase(server, async ({ db }) => {
      const latest = sql<{ name: string }>`select max(name) as name from kysely_migration`;
      const name = (await latest.execute(db)).rows[0]?.name;
      expect(name).toBeTruthy();
      // As if an older build had run the migrations: the newest is not there.
      await sql`update kysely_migration set name = ${`${name}-elsewhere`} where name = ${name}`.execute(db);
      try {
        return await fetch(`${server.url}/api/ready`);
      } finally {
        await sql`update kysely_migration set name = ${name} where name = ${`${name}-elsewhere`}`.execute(db);
      }
    });
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { error: { fields: Record<string, string> } };
    expect(Object.keys(body.error.fields)).toEqual(['migrations']);
    expect(body.error.fields.migrations).toMatch(/^pending: \S+$/);
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
  });
});

describe('metrics', () => {
  it('refuses a scrape without the token, or with a wrong one', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('counts requests by route pattern and status, with a latency histogram', async () => {
    const before = await scrape();
    const route = { method: 'GET', route: '/api/projects/:id', status: '401' };
    const counted = sample(before, 'dojo_http_requests_total', route);
    await fetch(`${server.url}/api/projects/abc123`);
    await fetch(`${server.url}/api/projects/def456`);
    // Counted once each answer is sent, which can be just after the client has it.
    await waitForSample('dojo_http_requests_total', route, (value) => value === counted + 2);
    const after = await scrape();
    expect(after).not.toContain('abc123');
    const histogram = { method: 'GET', route: '/api/projects/:id' };
    expect(sample(after, 'dojo_http_request_duration_seconds_count', histogram)).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'dojo_http_request_duration_seconds_bucket', { ...histogram, le: '+Inf' })).toBe(
      sample(after, 'dojo_http_request_duration_seconds_count', histogram),
    );
  });

  it('reports live sockets, subscriptions and the fan-out latency', async () => {
    const alice = await signUpClient(server.url, 'alice');
    try {
      const fanOutsBefore = sample(await scrape(), 'dojo_live_fanout_seconds_count');
      const list = new LiveRecorder<Project>(alice.client, dashboardQuery('all', alice.user.uid, 50));
      await list.until(() => true);
      await waitForSample('dojo_live_sockets', {}, (value) => value >= 1);
      await waitForSample('dojo_live_subscriptions', {}, (value) => value >= 1);
      const project = await createProjectAs(alice, { name: 'Measured', details: 'fan-out' });
      await list.until((docs) => docs.some((doc) => doc.id === project.id));
      await waitForSample('dojo_live_fanout_seconds_count', {}, (value) => value > fanOutsBefore);
      list.unsubscribe();
      await waitForSample('dojo_live_subscriptions', {}, (value) => value === 0);
    } finally {
      alice.client.close();
    }
    await waitForSample('dojo_live_sockets', {}, (value) => value === 0);
  });

  it('counts rate-limit refusals by route', async () => {
    const route = { route: '/api/auth/login' };
    const before = sample(await scrape(), 'dojo_rate_limit_refusals_total', route);
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= RATE_LIMIT; attempt += 1) {
      const response = await postJson(server.url, '/api/auth/login', {
        email: uniqueEmail(),
        password: 'whatever-password',
      });
      statuses.push(response.status);
    }
    expect(statuses).toContain(429);
    const refused = statuses.filter((status) => status === 429).length;
    await waitForSample('dojo_rate_limit_refusals_total', route, (value) => value === before + refused);
  });

  it('counts storage errors', async () => {
    const user = await signUpStorageUser(server.url);
    const before = sample(await scrape(), 'dojo_storage_errors_total');
    const response = await withStorageAway(() =>
      uploadMultipart(server.url, `files/${user.uid}/a.txt`, new TextEncoder().encode('hello'), {
        headers: user.auth,
      }),
    );
    expect(response.status).toBe(500);
    expect(sample(await scrape(), 'dojo_storage_errors_total')).toBe(before + 1);
  });

  it('exposes the event-loop lag and the database error counter', async () => {
    const text = await scrape();
    expect(text).toMatch(/^dojo_nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^dojo_database_errors_total 0$/m);
  });
});

describe('metrics off', () => {
  it('answers GET /metrics with the JSON 404 of the API, not the web app, without METRICS_TOKEN', async () => {
    // A stand-in web build: with one mounted, unknown paths get the app's HTML page.
    const webRoot = await mkdtemp(path.join(os.tmpdir(), 'dojo-web-'));
    await writeFile(path.join(webRoot, 'index.html'), '<!doctype html><title>The Dojo</title>');
    const plain = await startTestServer({ configOverrides: { webRoot } });
    try {
      expect((await fetch(`${plain.url}/no/such/page`)).headers.get('content-type')).toMatch(/^text\/html/);
      const response = await fetch(`${plain.url}/metrics`, { headers: { 'x-request-id': 'scrape-1' } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        error: { code: 'not-found', message: messages.notFound, requestId: 'scrape-1' },
      });
    } finally {
      await plain.stop();
      await rm(webRoot, { recursive: true, force: true });
    }
  });
});

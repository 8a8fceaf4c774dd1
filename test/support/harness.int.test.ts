import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startTestServer, testDatabaseEngine, type TestServer } from './test-server';

async function databaseExists(adminUrl: string, databaseUrl: string): Promise<boolean> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const result = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe(`test harness (${testDatabaseEngine()})`, () => {
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('starts the real server on a random 127.0.0.1 port and serves /api/health', async () => {
    server = await startTestServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    await response.json();
  });

  it('restarts on the same data and cleans up everything it created when stopped', async () => {
    server = await startTestServer();
    const { dataDir, databaseUrl } = server;
    if (testDatabaseEngine() === 'postgres') expect(databaseUrl).toMatch(/\/dojo_test_[0-9a-f]+$/);
    else expect(databaseUrl).toBeUndefined();

    const { url } = await server.restart();
    expect(url).toBe(server.url);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);

    await server.stop();
    server = undefined;
    expect(existsSync(dataDir)).toBe(false);
    if (databaseUrl) expect(await databaseExists(inject('postgresAdminUrl'), databaseUrl)).toBe(false);
  });
});

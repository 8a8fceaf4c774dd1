import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '../../src/common';
import { serverBuildOptions, startNodeFlags } from '../../scripts/build-server';
import { LiveRecorder, signUpClient } from '../support/clients';
import { startServerProcess, type ChildServer } from '../support/server-process';
import { createTestDatabaseUrl, dropTestDatabase, testDatabaseEngine } from '../support/test-server';
import { createProjectAs } from '../support/clients';

/**
 * `npm start` runs the bundle `npm run build:server` makes (dependencies inlined, lazy chunks for pg,
 * prom-client, nodemailer and S3), not the TypeScript sources every other test runs. This builds it with
 * the same options and runs it with the flags of `npm start`, on this project's engine: a module the
 * bundle cannot load, or a chunk that breaks, fails here rather than on the first production start.
 */
const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const METRICS_TOKEN = 'bundle-test-metrics-token';

let outDir: string;
let dataDir: string;
let databaseUrl: string | undefined;
let server: ChildServer;

beforeAll(async () => {
  // Inside the repository, so the bundle finds better-sqlite3 in node_modules as dist/server does.
  await mkdir(path.join(REPOSITORY, '.tmp'), { recursive: true });
  outDir = await mkdtemp(path.join(REPOSITORY, '.tmp', 'server-bundle-'));
  await build(serverBuildOptions({ main: path.join(REPOSITORY, 'src/server/main.ts') }, outDir));
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-bundle-'));
  databaseUrl = testDatabaseEngine() === 'postgres' ? await createTestDatabaseUrl() : undefined;
  server = await startServerProcess({
    dataDir,
    databaseUrl,
    bundle: { file: path.join(outDir, 'main.mjs'), nodeFlags: startNodeFlags() },
    env: { METRICS_TOKEN },
  });
}, 120_000);

afterAll(async () => {
  const exit = await server?.stop();
  await rm(outDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  expect(exit?.code).toBe(0);
});

describe('the server bundle that npm start runs', () => {
  it('signs up, creates and lists projects, and delivers a live change', async () => {
    const ada = await signUpClient(server.url, 'Ada');
    try {
      const dashboard = new LiveRecorder<Project>(ada.client, {
        kind: 'query',
        collection: 'projects',
        where: [],
        orderBy: { field: 'createdAt', direction: 'desc' },
        limit: 50,
      });
      await dashboard.until((projects) => projects.length === 0);
      const created = await createProjectAs(ada, { name: 'Shipped from the bundle', details: 'Runs as npm start runs it.', category: 'development' });
      await dashboard.until((projects) => projects.some((project) => project.id === created.id));
      dashboard.unsubscribe();

      const listed = await fetch(`${server.url}/api/projects?limit=10`, {
        headers: { cookie: ada.client.transport.cookieHeader() ?? '' },
      });
      expect(listed.status).toBe(200);
      const { projects } = (await listed.json()) as { projects: Project[] };
      expect(projects.map((project) => project.name)).toEqual(['Shipped from the bundle']);
    } finally {
      ada.client.close();
    }
  });

  it('loads its lazy parts: the OpenAPI document and the metrics client', async () => {
    const openApi = await fetch(`${server.url}/api/openapi.json`);
    expect(openApi.status).toBe(200);
    expect(((await openApi.json()) as { openapi: string }).openapi).toMatch(/^3\./);

    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP /m);
  });
});

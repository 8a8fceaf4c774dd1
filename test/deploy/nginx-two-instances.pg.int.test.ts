import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardQuery, type Project } from '../../src/common';
import type { Config } from '../../src/server/config/config';
import {
  signUpStorageUser,
  startSession,
  testBytes,
  uploadCommand,
} from '../../src/server/storage/testing/storage-http';
import { LiveRecorder, newClient, signUpClient } from '../support/clients';
import { uniqueEmail } from '../support/fixtures';
import { deployDocNginxConfig, startNginx, type RunningNginx } from '../support/nginx';
import { pollUntil, WAIT_MS } from '../support/poll';
import { freePort } from '../support/processes';
import { createTestBucket, s3StorageConfig, startSwiftS3, type SwiftS3 } from '../support/swift-s3';
import {
  createTestDatabaseUrl,
  dropTestDatabase,
  startTestServer,
  type TestServer,
} from '../support/test-server';
import { createProjectAs } from '../support/clients';

const METRICS_TOKEN = 'nginx-test-metrics-token-0123456789';
const AUTH_RATE_LIMIT = 4;

/**
 * Where both instances keep files: one bucket on a real S3 API (Swift s3api started here). Each instance
 * has its own DATA_DIR, so nothing an upload needs can pass between them through a local disk.
 */
async function startSharedStorage(): Promise<{ swift: SwiftS3; overrides: Partial<Config> }> {
  const swift = await startSwiftS3();
  const bucket = await createTestBucket(swift);
  return { swift, overrides: { blobStorage: s3StorageConfig(swift, bucket) } };
}

let nginx: RunningNginx;
let instances: [TestServer, TestServer];
let databaseUrl: string;
let dataDirs: string[] = [];
let swift: SwiftS3 | undefined;

beforeAll(async () => {
  const nginxPort = await freePort();
  const storage = await startSharedStorage();
  swift = storage.swift;
  dataDirs = await Promise.all([1, 2].map(() => mkdtemp(path.join(os.tmpdir(), 'dojo-nginx-data-'))));
  databaseUrl = await createTestDatabaseUrl();
  const overrides: Partial<Config> = {
    ...storage.overrides,
    publicUrl: `http://127.0.0.1:${nginxPort}`,
    trustProxy: ['127.0.0.1'],
    metricsToken: METRICS_TOKEN,
    authRateLimitPerMinute: AUTH_RATE_LIMIT,
    maxConnectionsPerAddress: 10_000,
  };
  const first = await startTestServer({ databaseUrl, dataDir: dataDirs[0], configOverrides: overrides });
  const second = await startTestServer({ databaseUrl, dataDir: dataDirs[1], configOverrides: overrides });
  instances = [first, second];
  const portOf = (server: TestServer) => Number(new URL(server.url).port);
  nginx = await startNginx(nginxPort, deployDocNginxConfig(nginxPort, [portOf(first), portOf(second)]));
}, 180_000);

afterAll(async () => {
  await nginx?.stop();
  for (const instance of instances ?? []) await instance.stop();
  if (databaseUrl) await dropTestDatabase(databaseUrl);
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  await swift?.stop();
});

/** A sample summed over every series of `name` whose labels include each `labels` pair. */
async function metricOn(
  server: TestServer,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const response = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  let total = 0;
  for (const line of (await response.text()).split('\n')) {
    const match = /^([\w:]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    if (Object.entries(labels).every(([key, value]) => (match[2] ?? '').includes(`${key}="${value}"`))) {
      total += Number(match[3]);
    }
  }
  return total;
}

/** A JSON POST through nginx from a chosen loopback address (the client's real address). */
function postFrom(localAddress: string, pathname: string, body: unknown): Promise<number> {
  const url = new URL(pathname, nginx.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

describe('two instances behind the nginx config of docs/deploy.md', () => {
  it('signs up and logs in through nginx', async () => {
    const alice = await signUpClient(nginx.url, 'alice');
    const again = newClient(nginx.url);
    try {
      await again.auth.whenReady();
      const user = await again.auth.logIn({ email: alice.email, password: alice.password });
      expect(user.uid).toBe(alice.user.uid);
    } finally {
      alice.client.close();
      again.close();
    }
  });

  it('delivers a change made on one instance to a live socket (upgraded through nginx) on the other', async () => {
    const alice = await signUpClient(nginx.url, 'watcher');
    try {
      const list = new LiveRecorder<Project>(alice.client, dashboardQuery('all', alice.user.uid, 50));
      await list.until(() => true);
      const sockets = await Promise.all(instances.map((instance) => metricOn(instance, 'dojo_live_sockets')));
      expect(sockets.reduce((sum, count) => sum + count, 0)).toBe(1);
      // The write goes straight to the instance that does not hold the socket.
      const other = instances[sockets[0] === 1 ? 1 : 0];
      const bob = await signUpClient(other.url, 'writer');
      try {
        const project = await createProjectAs(bob, {
          name: 'Across nginx',
          details: 'made on the other instance',
          assignedUserIds: [alice.user.uid],
        });
        await list.until((docs) => docs.some((doc) => doc.id === project.id), WAIT_MS, 'the project');
      } finally {
        bob.client.close();
      }
    } finally {
      alice.client.close();
    }
  });

  it('takes a resumable upload whose chunks land on both instances in turn', async () => {
    const user = await signUpStorageUser(nginx.url);
    const chunkSize = 256 * 1024;
    const chunks = 4;
    const bytes = testBytes(chunkSize * chunks);
    const uploadUrl = await startSession(nginx.url, `files/${user.uid}/big.bin`, bytes.length, {
      headers: user.auth,
    });
    expect(uploadUrl.startsWith(nginx.url)).toBe(true);
    const storagePosts = () =>
      Promise.all(
        instances.map((instance) => metricOn(instance, 'dojo_http_requests_total', { method: 'POST' })),
      );
    const before = await storagePosts();
    for (let index = 0; index < chunks; index += 1) {
      const last = index === chunks - 1;
      const chunk = bytes.subarray(index * chunkSize, (index + 1) * chunkSize);
      const response = await uploadCommand(
        uploadUrl,
        user.auth,
        last ? 'upload, finalize' : 'upload',
        index * chunkSize,
        chunk,
      );
      expect(response.status, await response.clone().text()).toBe(200);
      if (last) {
        const resource = (await response.json()) as { size: string };
        expect(Number(resource.size)).toBe(bytes.length);
      }
    }
    // Counted once each answer is sent, which can be just after the client has it.
    let served: number[] = [];
    await pollUntil(
      async () => {
        served = (await storagePosts()).map((count, index) => count - (before[index] ?? 0));
        return served.reduce((sum, count) => sum + count, 0) >= chunks;
      },
      WAIT_MS,
      () => `chunk requests counted per instance: ${served.join(', ')}`,
    );
    // Round robin, not sticky: each instance took part of the one upload.
    expect(served.reduce((sum, count) => sum + count, 0)).toBe(chunks);
    expect(served.every((count) => count >= 1)).toBe(true);
  });

  it('keys rate limits on the real client address nginx reports', async () => {
    const attempt = (localAddress: string) =>
      postFrom(localAddress, '/api/auth/login', { email: uniqueEmail(), password: 'whatever-password' });
    const limited: number[] = [];
    for (let index = 0; index <= AUTH_RATE_LIMIT; index += 1) limited.push(await attempt('127.0.0.2'));
    expect(limited.slice(0, AUTH_RATE_LIMIT)).toEqual(Array(AUTH_RATE_LIMIT).fill(401));
    expect(limited.at(-1)).toBe(429);
    expect(await attempt('127.0.0.3')).toBe(401);
  });

  it("carries nginx's request id to the instance and back", async () => {
    const response = await fetch(`${nginx.url}/api/health`);
    expect(response.status).toBe(200);
    // nginx's $request_id: 32 hex digits, which the server keeps rather than making its own.
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('ran with nginx reporting no upstream errors', async () => {
    await pollUntil(
      () => true,
      1,
      () => '',
    );
    expect(await nginx.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });
});

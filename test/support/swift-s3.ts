import { pollUntil, WAIT_MS } from './poll';
import { freePort, stopByPid } from './processes';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { S3StorageConfig } from '../../src/server/config/config';

/**
 * A real S3 API for tests: OpenStack Swift with its `s3api` middleware (Debian's packages), started on
 * free 127.0.0.1 ports in a temp dir, stopped by PID. It checks SigV4 signatures like S3 does, so a wrong
 * secret is refused (swift-s3.int.test.ts proves it).
 *
 * Use: `const swift = await startSwiftS3()` → `swift.endpoint` (access key `test:tester`, secret `testing`);
 * `createTestBucket(swift)` for a fresh bucket, `removeTestBucket(swift, name)` to empty and drop it,
 * `s3StorageConfig(swift, bucket)` for the server's `blobStorage`; `await swift.stop()` at the end.
 */
export interface SwiftS3 {
  /** `http://127.0.0.1:PORT` (path-style addressing). */
  endpoint: string;
  /** Stops every process by PID and removes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
}

/** What reaches a test file (vitest `provide` / `inject` pass only plain data). */
export type SwiftS3Endpoint = Pick<SwiftS3, 'endpoint'>;

/** The one account tempauth knows here (`user_test_tester`). */
const SWIFT_S3_CREDENTIALS = {
  region: 'us-east-1',
  accessKeyId: 'test:tester',
  secretAccessKey: 'testing',
} as const;

const SWIFT_PACKAGES = [
  'swift',
  'swift-proxy',
  'swift-account',
  'swift-container',
  'swift-object',
  'memcached',
];
const SWIFT_INSTALL_COMMAND = `apt-get update && apt-get install -y --no-install-recommends ${SWIFT_PACKAGES.join(' ')}`;
const RING_BUILDER = '/usr/bin/swift-ring-builder';
const APT_GET = '/usr/bin/apt-get';
const SWIFT_BINARIES = ['/usr/bin/swift-proxy-server', RING_BUILDER, '/usr/bin/memcached'];
/** Swift reads its hash prefix/suffix only from here; Debian's package ships it. */
const SWIFT_CONF = '/etc/swift/swift.conf';
/** Swift's start is several waits in a row (rings, memcached, four servers, their databases). */
const READY_TIMEOUT_MS = 5 * WAIT_MS;
/** A fresh Swift answers 503 while it makes an account's and a container's databases. */
const BUCKET_TIMEOUT_MS = 3 * WAIT_MS;
const STOP_TIMEOUT_MS = 10_000;
const SERVERS = ['account', 'container', 'object'] as const;

/** Installs the Debian packages when root on Debian; otherwise fails at once with the command to run. */
function ensureSwiftInstalled(): void {
  const missing = () => [...SWIFT_BINARIES, SWIFT_CONF].filter((file) => !existsSync(file));
  if (missing().length === 0) return;
  if (!existsSync('/etc/debian_version') || process.getuid?.() !== 0) {
    throw new Error(
      `OpenStack Swift is not installed (missing ${missing().join(', ')}). Run: ${SWIFT_INSTALL_COMMAND}`,
    );
  }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...SWIFT_PACKAGES]]) {
    const result = spawnSync(APT_GET, args, {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0)
      throw new Error(`apt-get ${args.join(' ')} failed; run: ${SWIFT_INSTALL_COMMAND}`);
  }
  if (missing().length > 0) throw new Error(`Swift still missing after install: ${missing().join(', ')}`);
}

function ringBuilder(dir: string, args: string[]): void {
  const result = spawnSync(RING_BUILDER, args, { cwd: dir, encoding: 'utf8' });
  // `rebalance` exits 1 with a warning on a one-device ring that is balanced anyway.
  if (result.status !== 0 && !(args[1] === 'rebalance' && result.status === 1)) {
    throw new Error(`swift-ring-builder ${args.join(' ')} failed: ${result.stderr}`);
  }
}

const storageServerConf = (server: string, port: number, dir: string, user: string): string => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
user = ${user}
swift_dir = ${dir}/etc
devices = ${dir}/srv
mount_check = false
log_level = WARNING
conn_timeout = 5
node_timeout = 60
[pipeline:main]
pipeline = ${server}-server
[app:${server}-server]
use = egg:swift#${server}
`;

const proxyServerConf = (port: number, memcachedPort: number, dir: string, user: string): string => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
user = ${user}
swift_dir = ${dir}/etc
log_level = WARNING
[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats bulk s3api tempauth copy slo dlo proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
# One node and a busy test machine: a slow answer must not get the node error-limited, which would turn
# every later request into "SlowDown" for a minute.
conn_timeout = 5
node_timeout = 60
error_suppression_limit = 1000000
[filter:s3api]
use = egg:swift#s3api
location = ${SWIFT_S3_CREDENTIALS.region}
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${SWIFT_S3_CREDENTIALS.secretAccessKey} .admin
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachedPort}
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:bulk]
use = egg:swift#bulk
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
`;

/** Starts memcached and the four Swift servers; resolves once the proxy answers its health check. */
export async function startSwiftS3(): Promise<SwiftS3> {
  ensureSwiftInstalled();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dojo-swift-'));
  const children: ChildProcess[] = [];
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(children.map((child) => stopByPid(child, { graceMs: STOP_TIMEOUT_MS })));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const user = os.userInfo().username;
    await mkdir(path.join(dir, 'etc'));
    await mkdir(path.join(dir, 'srv', 'd1'), { recursive: true });
    const proxyPort = await freePort();
    const memcachedPort = await freePort();
    for (const server of SERVERS) {
      const port = await freePort();
      ringBuilder(path.join(dir, 'etc'), [`${server}.builder`, 'create', '8', '1', '1']);
      ringBuilder(path.join(dir, 'etc'), [`${server}.builder`, 'add', `r1z1-127.0.0.1:${port}/d1`, '1']);
      ringBuilder(path.join(dir, 'etc'), [`${server}.builder`, 'rebalance']);
      await writeFile(
        path.join(dir, 'etc', `${server}-server.conf`),
        storageServerConf(server, port, dir, user),
      );
    }
    await writeFile(
      path.join(dir, 'etc', 'proxy-server.conf'),
      proxyServerConf(proxyPort, memcachedPort, dir, user),
    );

    const asRoot = process.getuid?.() === 0 ? ['-u', 'root'] : [];
    children.push(
      spawnChild('memcached', [...asRoot, '-l', '127.0.0.1', '-p', String(memcachedPort), '-m', '64']),
    );
    for (const server of [...SERVERS, 'proxy']) {
      children.push(spawnChild(`swift-${server}-server`, [path.join(dir, 'etc', `${server}-server.conf`)]));
    }
    const endpoint = `http://127.0.0.1:${proxyPort}`;
    await waitUntilHealthy(endpoint, children);
    return { endpoint, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function spawnChild(command: string, args: string[]): ChildProcess {
  // The servers log to syslog; their own output is only a start-up failure worth nothing here.
  return spawn(command, args, { stdio: 'ignore' });
}

async function waitUntilHealthy(endpoint: string, children: ChildProcess[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const exited = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    if (exited)
      throw new Error(`Swift process '${exited.spawnfile}' exited during start (${exited.exitCode})`);
    const healthy = await fetch(`${endpoint}/healthcheck`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await delay(100);
  }
  throw new Error(`Swift did not answer ${endpoint}/healthcheck within ${READY_TIMEOUT_MS} ms`);
}

/** An SDK client for the harness itself (buckets); the server makes its own from `s3StorageConfig`. */
export function swiftS3Client(
  swift: SwiftS3Endpoint,
  secretAccessKey: string = SWIFT_S3_CREDENTIALS.secretAccessKey,
): S3Client {
  return new S3Client({
    endpoint: swift.endpoint,
    region: SWIFT_S3_CREDENTIALS.region,
    forcePathStyle: true,
    credentials: { accessKeyId: SWIFT_S3_CREDENTIALS.accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The server's S3 settings for `bucket` on this Swift (what STORAGE_DRIVER=s3 and S3_* produce). */
export function s3StorageConfig(swift: SwiftS3Endpoint, bucket: string): { driver: 's3' } & S3StorageConfig {
  return {
    driver: 's3',
    endpoint: swift.endpoint,
    bucket,
    forcePathStyle: true,
    keyPrefix: '',
    ...SWIFT_S3_CREDENTIALS,
  };
}

/** The same settings as environment variables, for a server or CLI in a process of its own. */
export function s3StorageEnv(swift: SwiftS3Endpoint, bucket: string): Record<string, string> {
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: swift.endpoint,
    S3_BUCKET: bucket,
    S3_REGION: SWIFT_S3_CREDENTIALS.region,
    S3_ACCESS_KEY_ID: SWIFT_S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: SWIFT_S3_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** Creates a bucket (a fresh random name unless given; creating an existing one of ours is fine). */
export async function createTestBucket(swift: SwiftS3Endpoint, name?: string): Promise<string> {
  const bucket = name ?? `dojo-test-${Math.random().toString(36).slice(2, 12)}`;
  const client = swiftS3Client(swift);
  // A Swift that has just started (or a busy machine) answers 503 'Please reduce your request rate' while
  // its account and container databases are being made: retry until the bucket exists and lists.
  let lastError: unknown;
  try {
    await pollUntil(
      async () => {
        try {
          await client.send(new CreateBucketCommand({ Bucket: bucket })).catch((error: unknown) => {
            if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw error;
          });
          await client.send(new ListObjectsV2Command({ Bucket: bucket, MaxKeys: 1 }));
          return true;
        } catch (error) {
          if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 503)
            throw error;
          lastError = error;
          return false;
        }
      },
      BUCKET_TIMEOUT_MS,
      () => `bucket ${bucket} was not usable within ${BUCKET_TIMEOUT_MS} ms: ${String(lastError)}`,
    );
  } finally {
    client.destroy();
  }
  return bucket;
}

/** Deletes every object of the bucket, then the bucket. */
export async function removeTestBucket(swift: SwiftS3Endpoint, bucket: string): Promise<void> {
  const client = swiftS3Client(swift);
  try {
    for (;;) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      if (keys.length === 0) break;
      await Promise.all(keys.map((Key) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key }))));
    }
    await client.send(new DeleteBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}

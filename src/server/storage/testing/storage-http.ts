import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { postSignup, sessionCookieOf } from '../../../../test/support/fixtures';
import {
  startTestServer,
  type StartTestServerOptions,
  type TestServer,
} from '../../../../test/support/test-server';
import { openDatabase, type DatabaseHandle } from '../../db/database';
import type { BlobStore } from '../stores/blob-store';
import { createBlobStore } from '../stores/create-blob-store';
import { KeyedMutex } from '../../core/keyed-mutex';
import { StorageSweeper } from '../uploads/storage-sweeper';

/**
 * Raw-HTTP helpers for the storage integration tests: real users from the signup endpoint, and
 * requests built byte for byte as docs/storage-protocol.md describes them.
 */
export interface StorageTestUser {
  uid: string;
  cookie: string;
  idToken: string;
  /** `Authorization: Firebase <idToken>`, as the web SDK sends it. */
  auth: Record<string, string>;
}

export async function signUpStorageUser(baseUrl: string): Promise<StorageTestUser> {
  const response = await postSignup(baseUrl);
  expect(response.status).toBe(201);
  const body = (await response.json()) as { user: { uid: string }; idToken: string };
  return {
    uid: body.user.uid,
    cookie: sessionCookieOf(response),
    idToken: body.idToken,
    auth: { authorization: `Firebase ${body.idToken}` },
  };
}

const DEFAULT_BUCKET = 'dojo';

export const bucketUrl = (baseUrl: string, bucket = DEFAULT_BUCKET): string =>
  `${baseUrl}/v0/b/${encodeURIComponent(bucket)}/o`;

export const objectUrl = (baseUrl: string, name: string, bucket = DEFAULT_BUCKET): string =>
  `${bucketUrl(baseUrl, bucket)}/${encodeURIComponent(name)}`;

export const md5Base64 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('base64');
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Bytes as a fetch body (a copy on its own ArrayBuffer, which is what BodyInit accepts). */
export const asBody = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes);

/**
 * The SDK's multipart body (docs/storage-protocol.md §4.7), byte for byte, with a boundary of digits like
 * `Math.random()`'s.
 */
export function multipartBody(
  metadata: Record<string, unknown>,
  bytes: Uint8Array,
  contentType: string,
  boundary = `${Math.random().toString().slice(2)}${Math.random().toString().slice(2)}`,
): { body: Buffer; contentType: string } {
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${JSON.stringify(metadata)}\r\n` +
        `--${boundary}\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--`),
  ]);
  return { body, contentType: `multipart/related; boundary=${boundary}` };
}

export interface UploadOptions {
  contentType?: string;
  metadata?: Record<string, unknown>;
  headers?: Record<string, string>;
  bucket?: string;
}

/** `uploadBytes`: one multipart POST. */
export function uploadMultipart(
  baseUrl: string,
  name: string,
  bytes: Uint8Array,
  options: UploadOptions = {},
): Promise<Response> {
  const contentType = options.contentType ?? 'application/octet-stream';
  const { body, contentType: bodyType } = multipartBody(
    { name, contentType, ...options.metadata },
    bytes,
    contentType,
  );
  return fetch(`${bucketUrl(baseUrl, options.bucket)}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      'X-Goog-Upload-Protocol': 'multipart',
      'content-type': bodyType,
      'X-Firebase-Storage-Version': 'webjs/12.19.0',
      ...options.headers,
    },
    body: asBody(body),
  });
}

/** Uploads and returns the object resource, failing the test on anything but 200. */
export async function putObject(
  baseUrl: string,
  name: string,
  bytes: Uint8Array,
  options: UploadOptions = {},
): Promise<Record<string, unknown>> {
  const response = await uploadMultipart(baseUrl, name, bytes, options);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** `deleteObject`: one DELETE on the object's URL. */
export function deleteObject(
  baseUrl: string,
  name: string,
  options: Pick<UploadOptions, 'headers' | 'bucket'> = {},
): Promise<Response> {
  return fetch(objectUrl(baseUrl, name, options.bucket), { method: 'DELETE', headers: options.headers });
}

/** Resumable start (docs/storage-protocol.md §4.8a). */
export function startResumable(
  baseUrl: string,
  name: string,
  size: number,
  options: UploadOptions = {},
): Promise<Response> {
  const contentType = options.contentType ?? 'application/octet-stream';
  return fetch(`${bucketUrl(baseUrl, options.bucket)}?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: {
      'X-Goog-Upload-Protocol': 'resumable',
      'X-Goog-Upload-Command': 'start',
      'X-Goog-Upload-Header-Content-Length': String(size),
      'X-Goog-Upload-Header-Content-Type': contentType,
      'content-type': 'application/json; charset=utf-8',
      ...options.headers,
    },
    body: JSON.stringify({ name, contentType, ...options.metadata }),
  });
}

/**
 * Starts a session and returns its upload URL, absolute (a server without PUBLIC_URL sends a path),
 * failing the test on anything but `200 active`.
 */
export async function startSession(
  baseUrl: string,
  name: string,
  size: number,
  options: UploadOptions = {},
): Promise<string> {
  const response = await startResumable(baseUrl, name, size, options);
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('x-goog-upload-status')).toBe('active');
  const url = response.headers.get('x-goog-upload-url');
  expect(url).toBeTruthy();
  return new URL(url!, baseUrl).href;
}

/** A command on an upload URL (docs/storage-protocol.md §4.8b–d). */
export function uploadCommand(
  uploadUrl: string,
  headers: Record<string, string>,
  command: string,
  offset?: number,
  bytes?: Uint8Array,
): Promise<Response> {
  return fetch(uploadUrl, {
    method: 'POST',
    headers: {
      'X-Goog-Upload-Command': command,
      ...(offset === undefined ? {} : { 'X-Goog-Upload-Offset': String(offset) }),
      ...headers,
    },
    body: asBody(bytes ?? new Uint8Array(0)),
  });
}

/** Deterministic, non-repeating test bytes. */
export function testBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed * 2654435761;
  for (let index = 0; index < size; index += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

/**
 * Runs `action` with a StorageSweeper of its own on the test server's database and data dir (the real
 * code, not a mock): the sweeps run in the background in the app, and a test needs them on demand.
 */
export async function withStorageSweeper<T>(
  server: TestServer,
  action: (sweeper: StorageSweeper) => Promise<T>,
): Promise<T> {
  return withDatabase(server, (database) =>
    withBlobStore(server, (blobs) =>
      action(
        new StorageSweeper({
          db: database.db,
          blobs,
          uploadLocks: new KeyedMutex(),
          uploadSessionTtlMs: server.config.storageUploadSessionTtlMs,
        }),
      ),
    ),
  );
}

/**
 * Runs `action` with a blob store of its own on the test server's storage, whichever the driver (disk
 * or S3): tests look at stored bytes through the BlobStore interface, never at files, so they hold for both.
 */
export async function withBlobStore<T>(
  server: Pick<TestServer, 'config'>,
  action: (blobs: BlobStore) => Promise<T>,
): Promise<T> {
  const store = await createBlobStore(server.config.blobStorage, server.config.dataDir);
  try {
    return await action(store.blobs);
  } finally {
    store.close();
  }
}

/** The ids of everything `list` yields (listBlobs or listParts). */
export async function storedIds(list: AsyncIterable<{ id: string }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of list) ids.push(entry.id);
  return ids;
}

/** The upload ids that have stored bytes (resumable parts) on the test server. */
export const storedUploadIds = (server: Pick<TestServer, 'config'>): Promise<string[]> =>
  withBlobStore(server, (blobs) => storedIds(blobs.listParts()));

/** Runs `action` on a connection of its own to the test server's database (SQLite file or PostgreSQL). */
export async function withDatabase<T>(
  server: TestServer,
  action: (database: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: server.databaseUrl });
  try {
    return await action(database);
  } finally {
    await database.close();
  }
}

/** A storage suite's server and its two users, Alice and Bob. */
export interface StorageSuite {
  server: TestServer;
  alice: StorageTestUser;
  bob: StorageTestUser;
}

/** A server started before the suite (or `describe`) and stopped after it; `ready` sets it up for the tests. */
function useServer(ready: (server: TestServer) => Promise<void>, options?: StartTestServerOptions): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
    await ready(server);
  });
  afterAll(async () => {
    await server?.stop();
  });
}

/**
 * The setup most storage suites share: a server started before the suite (or `describe`) with two
 * signed-up users, stopped after it. `ready` receives them, e.g. `({ server, alice, bob } = suite)`.
 */
export function useStorageSuite(
  ready: (suite: StorageSuite) => void,
  options?: StartTestServerOptions,
): void {
  useServer(async (server) => {
    const [alice, bob] = await Promise.all([signUpStorageUser(server.url), signUpStorageUser(server.url)]);
    ready({ server, alice, bob });
  }, options);
}

/**
 * A server of its own settings (a quota, PUBLIC_URL, ...) with one signed-up user, for the suites that
 * measure that user's room. `ready` may be async, to read what the tests need before they run.
 */
export function useStorageUser(
  ready: (suite: { server: TestServer; user: StorageTestUser }) => void | Promise<void>,
  options?: StartTestServerOptions,
): void {
  useServer(async (server) => {
    await ready({ server, user: await signUpStorageUser(server.url) });
  }, options);
}

/** The bytes of the thumbnail(s) every signup stores, which count against the user's quota. */
async function signupThumbnailBytes(baseUrl: string, user: StorageTestUser): Promise<number> {
  const listing = await fetch(
    `${bucketUrl(baseUrl)}?prefix=${encodeURIComponent(`thumbnails/${user.uid}/`)}`,
    { headers: user.auth },
  );
  const { items } = (await listing.json()) as { items: { name: string }[] };
  let used = 0;
  for (const item of items) {
    const metadata = await fetch(objectUrl(baseUrl, item.name), { headers: user.auth });
    used += Number(((await metadata.json()) as { size: string }).size);
  }
  return used;
}

/**
 * useStorageUser on a server with a quota of `quota` bytes (and any other `configOverrides`); `room` is
 * what the user may still store: the quota less the thumbnail every signup stores.
 */
export function useQuotaUser(
  quota: number,
  ready: (suite: { server: TestServer; user: StorageTestUser; room: number }) => void,
  configOverrides: StartTestServerOptions['configOverrides'] = {},
): void {
  useStorageUser(
    async (suite) =>
      ready({ ...suite, room: quota - (await signupThumbnailBytes(suite.server.url, suite.user)) }),
    { configOverrides: { ...configOverrides, storageQuotaBytes: quota } },
  );
}

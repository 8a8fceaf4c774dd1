import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/server/config/config';
import { createBlobStore } from '../../src/server/storage/stores/create-blob-store';
import { S3BlobStore } from '../../src/server/storage/stores/s3-blob-store';
import {
  createTestBucket,
  removeTestBucket,
  s3StorageConfig,
  startSwiftS3,
  swiftS3Client,
  type SwiftS3Endpoint,
} from './swift-s3';

/**
 * The S3 blob store against a real S3 API (Swift + s3api): signatures are checked, and a resumable upload
 * whose chunks reach different instances (separate stores, nothing shared but the bucket) comes out
 * byte-exact with the right MD5. Uses the run's Swift in the integration-s3 project, else starts one.
 */
let swift: SwiftS3Endpoint;
let stopOwnSwift: (() => Promise<void>) | undefined;
let bucket: string;
const stores: S3BlobStore[] = [];

const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('base64');
const newUploadId = (): string => randomBytes(12).toString('hex');

function newStore(): S3BlobStore {
  const { driver: _driver, ...options } = s3StorageConfig(swift, bucket);
  const store = new S3BlobStore(options);
  stores.push(store);
  return store;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  const provided = inject('swiftS3');
  if (provided) {
    swift = provided;
  } else {
    const own = await startSwiftS3();
    swift = own;
    stopOwnSwift = () => own.stop();
  }
  bucket = await createTestBucket(swift);
}, 120_000);

afterAll(async () => {
  for (const store of stores) store.close();
  if (bucket) await removeTestBucket(swift, bucket);
  await stopOwnSwift?.();
});

describe('Swift s3api as the test S3', () => {
  it('refuses a request signed with a wrong secret', async () => {
    const client = swiftS3Client(swift, 'not-the-secret');
    try {
      await expect(client.send(new ListObjectsV2Command({ Bucket: bucket }))).rejects.toMatchObject({
        name: 'SignatureDoesNotMatch',
      });
    } finally {
      client.destroy();
    }
  });

  it('stops the start with a clear message when the S3 keys are wrong', async () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: swift.endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'test:tester',
      S3_SECRET_ACCESS_KEY: 'wrong',
      S3_FORCE_PATH_STYLE: 'true',
    });
    await expect(createBlobStore(config.blobStorage, '/nonexistent')).rejects.toThrow(
      `S3 storage (bucket '${bucket}') is not usable: SignatureDoesNotMatch`,
    );
  });
});

describe('S3BlobStore', () => {
  it('writes a multipart blob and reads it back whole and by range', async () => {
    const store = newStore();
    const bytes = randomBytes(9 * 1024 * 1024 + 17);
    const blob = await store.write([bytes.subarray(0, 1000), bytes.subarray(1000)], { headBytes: 8 });
    expect(blob).toMatchObject({ size: bytes.length, md5Base64: md5(bytes), head: bytes.subarray(0, 8) });
    expect((await readAll(store.read(blob.key))).equals(bytes)).toBe(true);
    const range = await readAll(store.read(blob.key, { start: 8_000_000, end: 8_000_099 }));
    expect(range.equals(bytes.subarray(8_000_000, 8_000_100))).toBe(true);
    await store.delete(blob.key);
    await expect(readAll(store.read(blob.key))).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('keeps nothing of a write whose source fails', async () => {
    const store = newStore();
    const before = new Set<string>();
    for await (const entry of store.listBlobs()) before.add(entry.id);
    async function* failing(): AsyncIterable<Uint8Array> {
      yield randomBytes(9 * 1024 * 1024);
      throw new Error('connection dropped');
    }
    await expect(store.write(failing())).rejects.toThrow('connection dropped');
    const after: string[] = [];
    for await (const entry of store.listBlobs()) if (!before.has(entry.id)) after.push(entry.id);
    expect(after).toEqual([]);
  });

  it('assembles an upload whose chunks reached different instances, with the MD5 of the whole file', async () => {
    const instances = [newStore(), newStore()];
    const bytes = randomBytes(3 * 1024 * 1024 + 5);
    const uploadId = newUploadId();
    await instances[0]?.createPart(uploadId);
    const chunk = 256 * 1024;
    let received = 0;
    for (let turn = 0; received < bytes.length; turn += 1) {
      const store = instances[turn % 2] as S3BlobStore;
      const { written, error } = await store.writePart(
        uploadId,
        received,
        once(bytes.subarray(received, received + chunk)),
      );
      expect(error).toBeUndefined();
      received += written;
    }
    expect((await instances[1]?.readPartHead(uploadId, 10))?.equals(bytes.subarray(0, 10))).toBe(true);
    const blob = await (instances[1] as S3BlobStore).commitPart(uploadId, bytes.length);
    expect(blob).toMatchObject({ size: bytes.length, md5Base64: md5(bytes) });
    expect((await readAll((instances[0] as S3BlobStore).read(blob.key))).equals(bytes)).toBe(true);

    const parts: string[] = [];
    for await (const entry of (instances[0] as S3BlobStore).listParts()) parts.push(entry.id);
    expect(parts).toContain(uploadId);
    await instances[0]?.deletePart(uploadId);
    parts.length = 0;
    for await (const entry of (instances[0] as S3BlobStore).listParts()) parts.push(entry.id);
    expect(parts).not.toContain(uploadId);
  });

  it('drops the marker of a part that never arrived (a crash mid-write) when the chunk comes again', async () => {
    const MiB = 1024 * 1024;
    const store = newStore();
    const uploadId = newUploadId();
    await store.createPart(uploadId);
    const first = randomBytes(6 * MiB);
    expect(await store.writePart(uploadId, 0, once(first))).toEqual({ written: first.length });
    // A write from 6 MiB stores a part's marker side by side with the part; the process dies after the
    // marker, before the part and before anything was counted.
    const name = (offset: number) => String(offset).padStart(15, '0');
    const client = swiftS3Client(swift);
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: `uploads/${uploadId}/${name(6 * MiB)}-${name(11 * MiB)}.part`,
          Body: '',
          ContentLength: 0,
        }),
      );
    } finally {
      client.destroy();
    }
    // The client sends again from the count, to another instance, with other bytes (a longer part: the
    // orphan marker's name sorts first, so only its removal lets the upload finish).
    const rest = randomBytes(5 * MiB + 3);
    expect(await newStore().writePart(uploadId, 6 * MiB, once(rest))).toEqual({ written: rest.length });
    const expected = Buffer.concat([first, rest]);
    const blob = await store.commitPart(uploadId, expected.length);
    expect(blob.md5Base64).toBe(md5(expected));
    expect((await readAll(store.read(blob.key))).equals(expected)).toBe(true);
    await store.deletePart(uploadId);
  });

  it('keeps the bytes before a dropped chunk, and a rewrite from a lower offset supersedes the rest', async () => {
    const store = newStore();
    const uploadId = newUploadId();
    await store.createPart(uploadId);
    const first = randomBytes(1000);
    async function* cut(): AsyncIterable<Uint8Array> {
      yield first;
      throw new Error('connection dropped');
    }
    const dropped = await store.writePart(uploadId, 0, cut());
    expect(dropped).toMatchObject({ written: 1000, error: new Error('connection dropped') });
    // A crash after the bytes were stored but before they were counted: the client resends from 600.
    const rest = randomBytes(700);
    expect(await store.writePart(uploadId, 600, once(rest))).toEqual({ written: 700 });
    const expected = Buffer.concat([first.subarray(0, 600), rest]);
    const blob = await store.commitPart(uploadId, 1300);
    expect(blob.md5Base64).toBe(md5(expected));
    expect((await readAll(store.read(blob.key))).equals(expected)).toBe(true);
    // Bytes never counted (past `size`) are not the object's.
    const shorter = await store.commitPart(uploadId, 1200);
    expect(shorter.md5Base64).toBe(md5(expected.subarray(0, 1200)));
    await store.deletePart(uploadId);
  });
});

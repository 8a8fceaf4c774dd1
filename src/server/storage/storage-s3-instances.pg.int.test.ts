import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestBucket,
  removeTestBucket,
  s3StorageConfig,
  startSwiftS3,
  type SwiftS3,
} from '../../../test/support/swift-s3';
import { startTwoInstances, type TwoInstances } from '../../../test/support/test-server';
import {
  md5Base64,
  objectUrl,
  signUpStorageUser,
  startSession,
  testBytes,
  uploadCommand,
  type StorageTestUser,
} from './testing/storage-http';

/**
 * Scale-out with STORAGE_DRIVER=s3: two instances on one PostgreSQL database and one bucket, and no
 * sticky routing. One resumable upload's chunks alternate between the instances; the object comes out
 * byte-exact with the MD5 of the whole file, and either instance serves it, ranges included.
 */
let swift: SwiftS3;
let bucket: string;
let instances: TwoInstances;
let alice: StorageTestUser;

beforeAll(async () => {
  swift = await startSwiftS3();
  bucket = await createTestBucket(swift);
  instances = await startTwoInstances({ blobStorage: s3StorageConfig(swift, bucket) });
  alice = await signUpStorageUser(instances.first.url);
}, 120_000);

afterAll(async () => {
  await instances?.stop();
  if (bucket) await removeTestBucket(swift, bucket);
  await swift?.stop();
});

/** The upload URL pointed at another instance: same path and query, another origin. */
function on(instanceUrl: string, uploadUrl: string): string {
  const url = new URL(uploadUrl);
  url.host = new URL(instanceUrl).host;
  return url.toString();
}

describe('resumable upload across instances on S3', () => {
  it('takes chunks alternately on two instances and serves the whole file and ranges from either', async () => {
    const origins = [instances.first.url, instances.second.url];
    const name = `files/${alice.uid}/across instances.bin`;
    // More than one S3 multipart part once assembled, in chunks the size the Firebase SDK starts with.
    const bytes = testBytes(9 * 1024 * 1024 + 4321, 7);
    const chunk = 1024 * 1024;
    const uploadUrl = await startSession(origins[0] ?? '', name, bytes.length, { headers: alice.auth });
    let offset = 0;
    let turn = 0;
    let finalized: Response | undefined;
    while (offset < bytes.length) {
      const origin = origins[turn % 2] ?? '';
      const end = Math.min(offset + chunk, bytes.length);
      const last = end === bytes.length;
      const response = await uploadCommand(
        on(origin, uploadUrl),
        alice.auth,
        last ? 'upload, finalize' : 'upload',
        offset,
        bytes.subarray(offset, end),
      );
      expect(response.status, await response.clone().text()).toBe(200);
      if (last) {
        finalized = response;
      } else {
        // The other instance sees what this one acknowledged: the state is in the database, the bytes in S3.
        const query = await uploadCommand(on(origins[(turn + 1) % 2] ?? '', uploadUrl), alice.auth, 'query');
        expect(query.headers.get('x-goog-upload-size-received')).toBe(String(end));
      }
      offset = end;
      turn += 1;
    }
    const resource = (await finalized?.json()) as { md5Hash: string; size: string };
    expect(resource).toMatchObject({ md5Hash: md5Base64(bytes), size: String(bytes.length) });

    for (const origin of origins) {
      const whole = await fetch(`${objectUrl(origin, name)}?alt=media`, { headers: alice.auth });
      expect(whole.status).toBe(200);
      expect(md5Base64(Buffer.from(await whole.arrayBuffer()))).toBe(md5Base64(bytes));
      const start = 8 * 1024 * 1024 - 10;
      const ranged = await fetch(`${objectUrl(origin, name)}?alt=media`, {
        headers: { ...alice.auth, range: `bytes=${start}-${start + 99}` },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-range')).toBe(`bytes ${start}-${start + 99}/${bytes.length}`);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(start, start + 100))).toBe(true);
    }
  });
});

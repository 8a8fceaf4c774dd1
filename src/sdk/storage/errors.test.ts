import { describe, expect, it } from 'vitest';
import { FakeClock, FakeStorageServer } from './fake-server.testing';
import { deleteObject, getDownloadURL, getMetadata, list, updateMetadata, uploadBytes } from './operations';
import { ref } from './reference';
import { createStorage } from './service';
import { isStorageError, StorageError } from './storage-error';

function storageAnswering(status: number, statusText = '') {
  const server = new FakeStorageServer();
  server.putObject('b', 'dir/obj', new Uint8Array([1]));
  server.intercept = () => new Response('{"error":{"code":0,"message":"x"}}', { status, statusText });
  const clock = new FakeClock();
  const storage = createStorage({
    baseUrl: server.origin,
    bucket: 'b',
    fetch: server.fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: clock.random,
  });
  return { server, storage };
}

async function failureOf(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const base = (text: string, code: string) => `Firebase Storage: ${text} (storage/${code})`;

describe('StorageError', () => {
  it('formats code and message the firebase way, and appends a non-empty server response', () => {
    const error = new StorageError('unknown', 'Some text.', 400);
    expect(error.code).toBe('storage/unknown');
    expect(error.message).toBe('Firebase Storage: Some text. (storage/unknown)');
    expect(error.status).toBe(400);
    expect(error.serverResponse).toBeNull();
    error.serverResponse = 'Bad Request';
    expect(error.message).toBe('Firebase Storage: Some text. (storage/unknown)\nBad Request');
    expect(error.customData.serverResponse).toBe('Bad Request');
    error.serverResponse = '';
    expect(error.message).toBe('Firebase Storage: Some text. (storage/unknown)');
    expect(error).toBeInstanceOf(Error);
    expect(isStorageError(error, 'unknown')).toBe(true);
    expect(isStorageError(error, 'canceled')).toBe(false);
  });
});

describe('status → error mapping (docs/storage-protocol.md §8.2)', () => {
  const objectPath = 'dir/obj';
  const cases: [number, string, string, string, number][] = [
    [
      401,
      'Unauthorized',
      'unauthenticated',
      'User is not authenticated, please authenticate using Firebase Authentication and try again.',
      401,
    ],
    [
      401,
      'Firebase App Check token is invalid.',
      'unauthorized-app',
      'This app does not have permission to access Firebase Storage on this project.',
      401,
    ],
    [
      402,
      'Payment Required',
      'quota-exceeded',
      "Quota for bucket 'b' exceeded, please view quota on https://firebase.google.com/pricing/.",
      402,
    ],
    [403, 'Forbidden', 'unauthorized', "User does not have permission to access 'dir/obj'.", 403],
    [404, 'Not Found', 'object-not-found', "Object 'dir/obj' does not exist.", 0],
    [
      400,
      'Bad Request',
      'unknown',
      'An unknown error occurred, please check the error payload for server response.',
      400,
    ],
    [
      409,
      'Conflict',
      'unknown',
      'An unknown error occurred, please check the error payload for server response.',
      409,
    ],
    [
      413,
      'Payload Too Large',
      'unknown',
      'An unknown error occurred, please check the error payload for server response.',
      413,
    ],
    [
      201,
      'Created',
      'unknown',
      'An unknown error occurred, please check the error payload for server response.',
      201,
    ],
  ];

  it.each(cases)('object ops: %i %s → storage/%s', async (status, statusText, code, text, errorStatus) => {
    const { storage } = storageAnswering(status, statusText);
    const error = await failureOf(getMetadata(ref(storage, objectPath)));
    expect(error.code).toBe(`storage/${code}`);
    expect(error.status).toBe(errorStatus);
    expect(error.serverResponse).toBe(statusText);
    expect(error.message).toBe(`${base(text, code)}\n${statusText}`);
  });

  it('a 404 on list or upload is unknown with status 404, not object-not-found', async () => {
    const { storage } = storageAnswering(404, 'Not Found');
    const listError = await failureOf(list(ref(storage, 'dir')));
    expect(listError).toMatchObject({ code: 'storage/unknown', status: 404 });
    const uploadError = await failureOf(uploadBytes(ref(storage, 'dir/x'), new Uint8Array(1)));
    expect(uploadError).toMatchObject({ code: 'storage/unknown', status: 404 });
  });

  it('the 403 message names the path (empty for the root) and the 402 message the bucket', async () => {
    const { storage } = storageAnswering(403);
    expect((await failureOf(list(ref(storage)))).message).toBe(
      base("User does not have permission to access ''.", 'unauthorized'),
    );
  });

  it('every object op maps 404 to object-not-found', async () => {
    const { storage } = storageAnswering(404);
    const target = ref(storage, 'dir/obj');
    for (const call of [
      getMetadata(target),
      getDownloadURL(target),
      updateMetadata(target, { contentType: 'x' }),
      deleteObject(target),
    ]) {
      expect(await failureOf(call)).toMatchObject({ code: 'storage/object-not-found', status: 0 });
    }
  });

  it.each([500, 503, 408, 429])(
    'retries %i until the cap, then retry-limit-exceeded with status 0',
    async (status) => {
      const { server, storage } = storageAnswering(status);
      storage.maxOperationRetryTime = 10_000;
      const error = await failureOf(getMetadata(ref(storage, 'dir/obj')));
      expect(error).toMatchObject({ code: 'storage/retry-limit-exceeded', status: 0, serverResponse: null });
      // 0, 2, 6 s and the forced attempt at 10 s (fake clock, no jitter).
      expect(server.requests).toHaveLength(4);
    },
  );

  it('retries network failures, then succeeds', async () => {
    const server = new FakeStorageServer();
    server.putObject('b', 'dir/obj', new Uint8Array([1]));
    let failures = 2;
    server.intercept = () => (failures-- > 0 ? 'network-error' : undefined);
    const clock = new FakeClock();
    const storage = createStorage({ baseUrl: server.origin, bucket: 'b', fetch: server.fetch, ...clock });
    const metadata = await getMetadata(ref(storage, 'dir/obj'));
    expect(metadata.size).toBe(1);
    expect(clock.sleeps).toEqual([2000, 4000]);
  });

  it('a success answer that is not a JSON object is storage/unknown with status 0', async () => {
    const server = new FakeStorageServer();
    server.intercept = () => new Response('[1,2]', { status: 200 });
    const storage = createStorage({ baseUrl: server.origin, bucket: 'b', fetch: server.fetch });
    expect(await failureOf(getMetadata(ref(storage, 'x')))).toMatchObject({
      code: 'storage/unknown',
      status: 0,
    });
  });
});

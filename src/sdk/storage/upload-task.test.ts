import { describe, expect, it } from 'vitest';
import {
  abortError,
  FakeClock,
  FakeStorageServer,
  type Interceptor,
  type RecordedRequest,
} from './fake-server.testing';
import { createStorage, type StorageOptions } from './service';
import { ref } from './reference';
import { uploadBytes, uploadBytesResumable } from './operations';
import { isResumableSize, nextChunkSize, type UploadTaskSnapshot } from './upload-task';
import { StorageError } from './storage-error';

const KiB = 1024;
const MiB = 1024 * KiB;

function bytes(size: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) data[i] = (i * 7 + 3) & 0xff;
  return data;
}

/** The fake server answers the first `upload, finalize` with `intercept`, and every other request itself. */
function onFirstFinalize(server: FakeStorageServer, intercept: Interceptor): void {
  let done = false;
  server.intercept = (request, signal) => {
    if (done || request.command !== 'upload, finalize') return undefined;
    done = true;
    return intercept(request, signal);
  };
}

function setUp(options: StorageOptions = {}) {
  const server = new FakeStorageServer();
  const clock = new FakeClock();
  const storage = createStorage({
    baseUrl: server.origin,
    bucket: 'b',
    getToken: () => 'id-token',
    fetch: server.fetch,
    sleep: clock.sleep,
    now: clock.now,
    random: clock.random,
    ...options,
  });
  return { server, clock, storage };
}

/** Resolves when `request` is made; holds the request until the client aborts it. */
function holdUntilAborted(matches: (request: RecordedRequest) => boolean) {
  let arrived: () => void = () => undefined;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  let armed = true;
  return {
    arrival,
    intercept: (request: RecordedRequest, signal: AbortSignal | undefined) => {
      if (!armed || !matches(request)) return undefined;
      armed = false;
      arrived();
      return new Promise<undefined>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(abortError()), { once: true });
      });
    },
  };
}

/** Vitest's deep equality walks typed arrays element by element; compare megabytes directly. */
function expectSameBytes(actual: Uint8Array | undefined, expected: Uint8Array): void {
  expect(actual?.byteLength).toBe(expected.byteLength);
  expect(Buffer.compare(Buffer.from(actual ?? []), Buffer.from(expected))).toBe(0);
}

const states = (snapshots: UploadTaskSnapshot[]) => snapshots.map((snapshot) => snapshot.state);

/** A 1 MiB upload to `name` whose second chunk (at 262144) the fake server holds until it is aborted. */
function uploadHeldAtSecondChunk(name: string) {
  const { server, storage } = setUp();
  const hold = holdUntilAborted((request) => request.offset === 262_144);
  server.intercept = hold.intercept;
  return { server, hold, task: uploadBytesResumable(ref(storage, name), bytes(MiB)) };
}

describe('chunk sizing (docs/storage-protocol.md §6.2)', () => {
  it('doubles while the double stays under 32 MiB, so the largest chunk is 16 MiB', () => {
    const sizes = [262_144];
    for (let i = 0; i < 9; i += 1) sizes.push(nextChunkSize(sizes.at(-1) ?? 0));
    expect(sizes).toEqual([
      262_144, 524_288, 1_048_576, 2_097_152, 4_194_304, 8_388_608, 16_777_216, 16_777_216, 16_777_216,
      16_777_216,
    ]);
  });

  it('switches to resumable strictly above 262144 bytes', () => {
    expect(isResumableSize(262_144)).toBe(false);
    expect(isResumableSize(262_145)).toBe(true);
  });

  it('sends 5 MiB + 123 bytes as 256K, 512K, 1M, 2M, then the rest with upload, finalize', async () => {
    const { server, storage } = setUp();
    const data = bytes(5 * MiB + 123);
    const snapshot = await uploadBytesResumable(ref(storage, 'files/u/big.bin'), data);
    expect(server.uploadLog).toEqual([
      'upload@0+262144',
      'upload@262144+524288',
      'upload@786432+1048576',
      'upload@1835008+2097152',
      'upload, finalize@3932160+1310843',
    ]);
    expect(snapshot.state).toBe('success');
    expect(snapshot.bytesTransferred).toBe(data.byteLength);
    expect(snapshot.metadata?.fullPath).toBe('files/u/big.bin');
    expectSameBytes(server.objects.get('b/files/u/big.bin')?.bytes, data);
  });

  it('never sends a chunk over 16 MiB', async () => {
    const { server, storage } = setUp();
    await uploadBytesResumable(ref(storage, 'big'), new Uint8Array(40 * MiB));
    const lengths = server.uploadLog.map((line) => Number(line.split('+')[1]));
    expect(lengths).toEqual([
      262_144, 524_288, 1_048_576, 2_097_152, 4_194_304, 8_388_608, 16_777_216, 8_650_752,
    ]);
  });
});

describe('protocol choice and requests', () => {
  it('uploads exactly 262144 bytes as one multipart request; progress jumps from 0 to the size', async () => {
    const { server, storage } = setUp();
    const task = uploadBytesResumable(ref(storage, 'a/b.bin'), bytes(262_144));
    const seen: UploadTaskSnapshot[] = [];
    task.on('state_changed', (snapshot) => seen.push(snapshot));
    const final = await task;
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.get('x-goog-upload-protocol')).toBe('multipart');
    expect(seen.map((snapshot) => snapshot.bytesTransferred)).toEqual([0, 262_144]);
    expect(final.state).toBe('success');
    expectSameBytes(server.objects.get('b/a/b.bin')?.bytes, bytes(262_144));
  });

  it('starts a resumable session with the docs/storage-protocol.md §4.8a headers and the upload metadata', async () => {
    const { server, storage } = setUp();
    const blob = new Blob([bytes(300_000)], { type: 'image/png' });
    await uploadBytesResumable(ref(storage, 'dir/x y.png'), blob, { customMetadata: { a: '1' } });
    const start = server.requests[0];
    expect(start?.method).toBe('POST');
    expect(start?.url.toString()).toBe('http://storage.test/v0/b/b/o?name=dir%2Fx%20y.png');
    expect(Object.fromEntries(start?.headers ?? [])).toEqual({
      authorization: 'Firebase id-token',
      'content-type': 'application/json; charset=utf-8',
      'x-firebase-storage-version': 'webjs/dojo',
      'x-goog-upload-command': 'start',
      'x-goog-upload-header-content-length': '300000',
      'x-goog-upload-header-content-type': 'image/png',
      'x-goog-upload-protocol': 'resumable',
    });
    expect(new TextDecoder().decode(start?.body)).toBe(
      '{"name":"dir/x y.png","contentType":"image/png","metadata":{"a":"1"}}',
    );
    const chunk = server.requests[1];
    expect(chunk?.headers.get('x-goog-upload-protocol')).toBeNull();
    expect(chunk?.headers.get('content-type')).toBeNull();
  });

  it('sends App Check tokens, and no Authorization when signed out', async () => {
    const { server, storage } = setUp({ getToken: () => null, getAppCheckToken: async () => 'app-check' });
    await uploadBytes(ref(storage, 'x'), bytes(10));
    const headers = server.requests[0]?.headers;
    expect(headers?.get('authorization')).toBeNull();
    expect(headers?.get('x-firebase-appcheck')).toBe('app-check');
  });

  it('uploadBytes is always one multipart request, whatever the size', async () => {
    const { server, storage } = setUp();
    const result = await uploadBytes(ref(storage, 'big.bin'), bytes(600_000));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.get('x-goog-upload-protocol')).toBe('multipart');
    expect(result.metadata.size).toBe(600_000);
    expect(result.ref.fullPath).toBe('big.bin');
  });
});

describe('task-level retry (docs/storage-protocol.md §6.4)', () => {
  it('after a 503 on a chunk: query at once, resume from the server offset with 256K chunks after 1 s', async () => {
    const { server, clock, storage } = setUp();
    let failed = false;
    server.intercept = (request) => {
      if (!failed && request.offset === 786_432) {
        failed = true;
        return new Response('busy', { status: 503 });
      }
      return undefined;
    };
    const data = bytes(2 * MiB);
    await uploadBytesResumable(ref(storage, 'r'), data);
    expect(server.uploadLog).toEqual([
      'upload@0+262144',
      'upload@262144+524288',
      'upload@786432+1048576', // answered 503, nothing stored
      'query',
      'upload@786432+262144',
      'upload@1048576+524288',
      'upload, finalize@1572864+524288',
    ]);
    // sleepTime is 0 before the failure, then 1000 before every later chunk (never reset).
    expect(clock.sleeps).toEqual([0, 0, 0, 1000, 1000, 1000]);
    expectSameBytes(server.objects.get('b/r')?.bytes, data);
  });

  it('recovers from a dropped connection mid-chunk by querying, and progress may go backwards', async () => {
    const { server, storage } = setUp();
    let dropped = false;
    // The server already holds 786432 bytes but says (as after a restart) it durably holds 262144.
    const data = bytes(MiB + 5);
    const task = uploadBytesResumable(ref(storage, 'n'), data);
    const progress: number[] = [];
    task.on('state_changed', (snapshot) => progress.push(snapshot.bytesTransferred));
    server.intercept = (request) => {
      if (!dropped && request.offset === 786_432) {
        dropped = true;
        const session = [...server.sessions.values()][0];
        if (session) {
          session.size = 262_144;
          session.received = session.received.slice(0, 262_144);
        }
        return 'network-error';
      }
      return undefined;
    };
    await task;
    expect(server.uploadLog.slice(0, 5)).toEqual([
      'upload@0+262144',
      'upload@262144+524288',
      'upload, finalize@786432+262149',
      'query',
      'upload@262144+262144',
    ]);
    expect(progress).toEqual([0, 262_144, 786_432, 262_144, 524_288, 1_048_576, MiB + 5]);
    expectSameBytes(server.objects.get('b/n')?.bytes, data);
  });

  it('absorbs 11 retryable chunk failures and fails the 12th with retry-limit-exceeded', async () => {
    const { server, clock, storage } = setUp();
    server.intercept = (request) =>
      request.command?.startsWith('upload') ? new Response('', { status: 503 }) : undefined;
    const task = uploadBytesResumable(ref(storage, 'f'), bytes(300_000));
    const error = await task.catch((caught: StorageError) => caught);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('storage/retry-limit-exceeded');
    expect((error as StorageError).message).toBe(
      'Firebase Storage: Max retry time for operation exceeded, please try again. (storage/retry-limit-exceeded)',
    );
    expect(server.uploadLog.filter((line) => line.startsWith('upload'))).toHaveLength(12);
    expect(clock.sleeps).toEqual([
      0, 1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 1_024_000,
    ]);
    expect(task.snapshot.state).toBe('error');
  });

  it('a short maxUploadRetryTime gives up sooner', async () => {
    const { server, storage } = setUp({ maxUploadRetryTime: 5000 });
    server.intercept = (request) =>
      request.command?.startsWith('upload') ? new Response('', { status: 500 }) : undefined;
    await expect(uploadBytesResumable(ref(storage, 'f'), bytes(300_000))).rejects.toMatchObject({
      code: 'storage/retry-limit-exceeded',
    });
    expect(server.uploadLog.filter((line) => line.startsWith('upload'))).toHaveLength(5);
  });

  it('a non-retryable chunk failure ends the task with the mapped error', async () => {
    const { server, storage } = setUp();
    server.intercept = (request) =>
      request.offset === 262_144 ? new Response('', { status: 403, statusText: 'Forbidden' }) : undefined;
    const error = await uploadBytesResumable(ref(storage, 'files/x'), bytes(600_000)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'storage/unauthorized', status: 403, serverResponse: 'Forbidden' });
    expect((error as Error).message).toBe(
      "Firebase Storage: User does not have permission to access 'files/x'. (storage/unauthorized)\nForbidden",
    );
  });

  it('finalizes when a query says every byte arrived but the session is still active', async () => {
    const { server, storage } = setUp();
    onFirstFinalize(server, (request) => {
      // The server stores the bytes, then the answer is lost (a 503 from a proxy).
      const session = [...server.sessions.values()][0];
      if (session) {
        const next = new Uint8Array(session.size + request.body.byteLength);
        next.set(session.received);
        next.set(request.body, session.size);
        session.received = next;
        session.size = next.byteLength;
      }
      return new Response('', { status: 503 });
    });
    const data = bytes(300_000);
    await uploadBytesResumable(ref(storage, 'fin'), data);
    expect(server.uploadLog.slice(-2)).toEqual(['query', 'finalize@300000+0']);
    expectSameBytes(server.objects.get('b/fin')?.bytes, data);
  });

  it('fetches the metadata when a query says the session is final', async () => {
    const { server, storage } = setUp();
    onFirstFinalize(server, async (request) => {
      // Let the server finalize, then lose its answer.
      await server.fetch(request.url.toString(), {
        method: 'POST',
        headers: request.headers,
        body: request.body as Uint8Array<ArrayBuffer>,
      });
      return 'network-error' as const;
    });
    const snapshot = await uploadBytesResumable(ref(storage, 'meta'), bytes(300_000));
    expect(server.uploadLog.slice(-1)).toEqual(['query']);
    expect(server.requests.at(-1)?.method).toBe('GET');
    expect(server.requests.at(-1)?.url.pathname).toBe('/v0/b/b/o/meta');
    expect(snapshot.metadata?.size).toBe(300_000);
  });

  it('fails with server-file-wrong-size when a query reports more bytes than the file has', async () => {
    const { server, storage } = setUp();
    server.intercept = (request) => {
      if (request.offset === 262_144) return new Response('', { status: 503 });
      if (request.command === 'query') {
        return new Response('', {
          headers: { 'x-goog-upload-status': 'active', 'x-goog-upload-size-received': '999999999' },
        });
      }
      return undefined;
    };
    await expect(uploadBytesResumable(ref(storage, 'w'), bytes(600_000))).rejects.toMatchObject({
      code: 'storage/server-file-wrong-size',
      message:
        'Firebase Storage: Server recorded incorrect upload file size, please retry the upload. (storage/server-file-wrong-size)',
    });
  });

  it('fails with unknown when a chunk answer lacks X-Goog-Upload-Status', async () => {
    const { server, storage } = setUp();
    server.intercept = (request) => (request.offset === 0 ? new Response('', { status: 200 }) : undefined);
    await expect(uploadBytesResumable(ref(storage, 'h'), bytes(600_000))).rejects.toMatchObject({
      code: 'storage/unknown',
      status: 0,
    });
  });
});

describe('pause, resume, cancel (docs/storage-protocol.md §6.3)', () => {
  it('pause aborts the chunk in flight; resume queries and restarts at 256K chunks', async () => {
    const { server, storage } = setUp();
    const hold = holdUntilAborted((request) => request.offset === 786_432);
    server.intercept = hold.intercept;
    const data = bytes(2 * MiB);
    const task = uploadBytesResumable(ref(storage, 'p'), data);
    const seen: UploadTaskSnapshot[] = [];
    task.on('state_changed', { next: (snapshot) => seen.push(snapshot) });
    await hold.arrival;
    expect(task.pause()).toBe(true);
    expect(task.snapshot.state).toBe('running'); // pausing shows as running until the abort lands
    expect(task.pause()).toBe(false);
    await expect.poll(() => task.snapshot.state).toBe('paused');
    expect(states(seen).at(-1)).toBe('paused');
    expect(task.pause()).toBe(false);
    expect(task.resume()).toBe(true);
    const final = await task;
    expect(final.state).toBe('success');
    expect(server.uploadLog).toEqual([
      'upload@0+262144',
      'upload@262144+524288',
      'upload@786432+1048576', // aborted
      'query',
      'upload@786432+262144',
      'upload@1048576+524288',
      'upload, finalize@1572864+524288',
    ]);
    expect(states(seen)).toEqual([
      'running',
      'running',
      'running',
      'paused',
      'running',
      'running',
      'running',
      'running',
    ]);
    expectSameBytes(server.objects.get('b/p')?.bytes, data);
  });

  it('pausing between chunks (no request in flight) goes straight to paused and keeps the chunk size', async () => {
    let holdSleep = false;
    let heldSleeps = 0;
    const { server, storage } = setUp({
      sleep: (_ms, signal) =>
        new Promise((resolve) => {
          if (!holdSleep) {
            setTimeout(resolve, 0);
            return;
          }
          heldSleeps += 1;
          signal?.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
    server.intercept = (request) => {
      if (request.offset === 0) holdSleep = true;
      return undefined;
    };
    const task = uploadBytesResumable(ref(storage, 'q'), bytes(MiB));
    await expect.poll(() => task.snapshot.bytesTransferred).toBe(262_144);
    // Between chunks: the task sleeps before the next one.
    await expect.poll(() => heldSleeps).toBe(1);
    expect(task.pause()).toBe(true);
    expect(task.snapshot.state).toBe('paused');
    holdSleep = false;
    expect(task.resume()).toBe(true);
    await task;
    expect(server.uploadLog).toEqual([
      'upload@0+262144',
      'upload@262144+524288',
      'upload, finalize@786432+262144',
    ]);
  });

  it('cancel aborts the request, rejects with storage/canceled and calls error observers', async () => {
    const { server, task, hold } = uploadHeldAtSecondChunk('c');
    const errors: StorageError[] = [];
    task.on('state_changed', null, (error) => errors.push(error));
    await hold.arrival;
    expect(task.cancel()).toBe(true);
    const error = await task.catch((caught: StorageError) => caught);
    expect(error).toMatchObject({
      code: 'storage/canceled',
      message: 'Firebase Storage: User canceled the upload/download. (storage/canceled)',
    });
    await expect.poll(() => errors.length).toBe(1);
    expect(task.snapshot.state).toBe('canceled');
    expect(task.cancel()).toBe(false);
    expect(task.resume()).toBe(false);
    expect(server.uploadLog).toEqual(['upload@0+262144', 'upload@262144+524288']);
  });

  it('cancel on a paused task cancels it (firebase/storage would return false)', async () => {
    const { server, task, hold } = uploadHeldAtSecondChunk('c2');
    await hold.arrival;
    task.pause();
    await expect.poll(() => task.snapshot.state).toBe('paused');
    const requestsBefore = server.requests.length;
    expect(task.cancel()).toBe(true);
    await expect(task).rejects.toMatchObject({ code: 'storage/canceled' });
    expect(server.requests.length).toBe(requestsBefore);
  });

  it('pause then resume while the request is still in flight continues without a paused notification', async () => {
    const { server, task, hold } = uploadHeldAtSecondChunk('pr');
    const seen: UploadTaskSnapshot[] = [];
    task.on('state_changed', (snapshot) => seen.push(snapshot));
    await hold.arrival;
    expect(task.pause()).toBe(true);
    expect(task.resume()).toBe(true);
    await task;
    expect(states(seen)).not.toContain('paused');
    expect(server.uploadLog).toContain('query');
  });

  it('an observer added after success gets complete; unsubscribe stops notifications', async () => {
    const { storage } = setUp();
    const task = uploadBytesResumable(ref(storage, 'o'), bytes(600_000));
    let nextCalls = 0;
    const unsubscribe = task.on('state_changed', () => (nextCalls += 1));
    unsubscribe();
    await task;
    expect(nextCalls).toBe(1); // only the immediate call made when it was added
    let completed = false;
    task.on('state_changed', { complete: () => (completed = true) });
    await expect.poll(() => completed).toBe(true);
  });

  it('a throwing observer does not break the task', async () => {
    const { storage } = setUp();
    const task = uploadBytesResumable(ref(storage, 't'), bytes(600_000));
    const original = console.error;
    const logged: unknown[] = [];
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      task.on('state_changed', () => {
        throw new Error('observer bug');
      });
      await expect(task).resolves.toMatchObject({ state: 'success' });
    } finally {
      console.error = original;
    }
    expect(logged.length).toBeGreaterThan(0);
  });
});

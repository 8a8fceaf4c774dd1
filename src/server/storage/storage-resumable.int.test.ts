import { describe, expect, it } from 'vitest';
import { THUMBNAIL_MAX_BYTES } from '../../common';
import { makePng } from '../../../test/support/fixtures';
import { pollUntil } from '../../../test/support/poll';
import type { TestServer } from '../../../test/support/test-server';
import { putBytes } from './stores/blob-store';
import { createBlobStore } from './stores/create-blob-store';
import {
  md5Base64,
  objectUrl,
  sha256,
  startResumable,
  startSession,
  testBytes,
  uploadCommand,
  useStorageSuite,
  withStorageSweeper,
  type StorageTestUser,
  storedIds,
  storedUploadIds,
  withBlobStore,
} from './testing/storage-http';

let server: TestServer;
let alice: StorageTestUser;
let bob: StorageTestUser;

useStorageSuite((suite) => ({ server, alice, bob } = suite));

/** The upload URL re-pointed at the server's current origin (it may move after a restart). */
const onCurrentServer = (uploadUrl: string): string => {
  const url = new URL(uploadUrl);
  const current = new URL(server.url);
  url.host = current.host;
  return url.toString();
};

async function retryOnNetworkError(request: () => Promise<Response>): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await request();
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

const uploadIdsWithBytes = (): Promise<string[]> => storedUploadIds(server);

async function download(name: string, user: StorageTestUser): Promise<Buffer> {
  const response = await fetch(`${objectUrl(server.url, name)}?alt=media`, { headers: user.auth });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe('resumable upload', () => {
  it('starts, uploads, queries and finalizes: the object is byte-identical', async () => {
    const name = `files/${alice.uid}/big upload.bin`;
    const bytes = testBytes(262_144 * 3 + 1234);
    const start = await startResumable(server.url, name, bytes.length, {
      headers: alice.auth,
      contentType: 'application/zip',
      metadata: { metadata: { origin: 'test' } },
    });
    expect(start.status).toBe(200);
    expect(start.headers.get('x-goog-upload-status')).toBe('active');
    // Without PUBLIC_URL a path, relative to the URL the client called, of the emulator's shape
    // (docs/storage-protocol.md §4.8a).
    const sent = start.headers.get('x-goog-upload-url')!;
    expect(sent.startsWith('/v0/b/dojo/o?')).toBe(true);
    const uploadUrl = new URL(sent, server.url).href;
    const parsed = new URL(uploadUrl);
    expect(parsed.pathname).toBe('/v0/b/dojo/o');
    expect(parsed.searchParams.get('name')).toBe(name);
    expect(parsed.searchParams.get('upload_protocol')).toBe('resumable');
    expect(parsed.searchParams.get('upload_id')).toMatch(/^[\w-]{16,}$/);

    const first = await uploadCommand(uploadUrl, alice.auth, 'upload', 0, bytes.subarray(0, 262_144));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-goog-upload-status')).toBe('active');

    const query = await uploadCommand(uploadUrl, alice.auth, 'query');
    expect(query.status).toBe(200);
    expect(query.headers.get('x-goog-upload-status')).toBe('active');
    expect(query.headers.get('x-goog-upload-size-received')).toBe('262144');
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(404);

    const second = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload',
      262_144,
      bytes.subarray(262_144, 786_432),
    );
    expect(second.headers.get('x-goog-upload-status')).toBe('active');

    const last = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload, finalize',
      786_432,
      bytes.subarray(786_432),
    );
    expect(last.status).toBe(200);
    expect(last.headers.get('x-goog-upload-status')).toBe('final');
    const resource = (await last.json()) as Record<string, unknown>;
    expect(resource).toMatchObject({
      name,
      bucket: 'dojo',
      size: String(bytes.length),
      md5Hash: md5Base64(bytes),
      contentType: 'application/zip',
      metadata: { origin: 'test' },
      metageneration: '1',
    });
    expect(typeof resource.downloadTokens).toBe('string');
    expect(sha256(await download(name, bob))).toBe(sha256(bytes));

    const finalQuery = await uploadCommand(uploadUrl, alice.auth, 'query');
    expect(finalQuery.headers.get('x-goog-upload-status')).toBe('final');
    expect(finalQuery.headers.get('x-goog-upload-size-received')).toBe(String(bytes.length));
  });
});

/**
 * One step of a session: a command, the bytes it sends (`[from, to)` of the file; `to` omitted: to the
 * end), and what the server must answer (status, `X-Goog-Upload-Status`, and the
 * `X-Goog-Upload-Size-Received` of a query right after it).
 */
interface Step {
  command: string;
  offset?: number;
  bytes?: readonly [from: number, to?: number];
  status: number;
  uploadStatus?: 'active' | 'final';
  receivedAfter?: number;
  /** The answer's body equals the first final answer's (a replayed finalize). */
  replaysFinal?: true;
  /** No object exists yet after this step. */
  noObjectYet?: true;
}

interface SessionCase {
  name: string;
  size: number;
  /** Declared at start; the file's size unless the case says otherwise. */
  declared?: number;
  steps: Step[];
  /** After the steps: the object holds exactly the file's bytes, or there is no object. */
  object: 'identical' | 'absent';
}

/**
 * The protocol's offset and finalize rules (docs/storage-protocol.md §5.2, §5.3), each as one session driven
 * step by step.
 */
const sessionCases: SessionCase[] = [
  {
    name: 'drops the overlap when a chunk starts below the bytes received',
    size: 300_000,
    steps: [
      { command: 'upload', offset: 0, bytes: [0, 100_000], status: 200 },
      // A resend from 50000 (the answer to the first chunk was lost): only 100000.. is new.
      { command: 'upload', offset: 50_000, bytes: [50_000, 200_000], status: 200, receivedAfter: 200_000 },
      // A chunk entirely below what was received changes nothing.
      { command: 'upload', offset: 0, bytes: [0, 10_000], status: 200, receivedAfter: 200_000 },
      { command: 'upload, finalize', offset: 200_000, bytes: [200_000], status: 200, uploadStatus: 'final' },
    ],
    object: 'identical',
  },
  {
    name: 'answers 503 for a gap (offset above the bytes received), appends nothing, and resumes',
    size: 300_000,
    steps: [
      { command: 'upload', offset: 0, bytes: [0, 100_000], status: 200 },
      { command: 'upload', offset: 150_000, bytes: [150_000, 200_000], status: 503, receivedAfter: 100_000 },
      // The client resumes at the reported offset.
      { command: 'upload, finalize', offset: 100_000, bytes: [100_000], status: 200, uploadStatus: 'final' },
    ],
    object: 'identical',
  },
  {
    name: 'refuses to finalize before every declared byte arrived (400), then finalizes once they have',
    size: 1000,
    steps: [
      { command: 'upload', offset: 0, bytes: [0, 600], status: 200 },
      { command: 'finalize', offset: 1000, status: 400, receivedAfter: 600, noObjectYet: true },
      { command: 'upload, finalize', offset: 600, bytes: [600, 900], status: 400, receivedAfter: 900 },
      { command: 'upload', offset: 900, bytes: [900], status: 200, uploadStatus: 'active' },
      { command: 'finalize', offset: 1000, status: 200, uploadStatus: 'final' },
    ],
    object: 'identical',
  },
  {
    name: 'refuses more bytes than declared (400) and keeps none of that chunk',
    size: 1000,
    declared: 500,
    steps: [{ command: 'upload, finalize', offset: 0, bytes: [0], status: 400, receivedAfter: 0 }],
    object: 'absent',
  },
  {
    name: 'replays the final answer for a repeated finalize or final chunk (200 final + resource)',
    size: 5000,
    steps: [
      { command: 'upload, finalize', offset: 0, bytes: [0], status: 200, uploadStatus: 'final' },
      { command: 'finalize', offset: 5000, status: 200, uploadStatus: 'final', replaysFinal: true },
      {
        command: 'upload, finalize',
        offset: 0,
        bytes: [0],
        status: 200,
        uploadStatus: 'final',
        replaysFinal: true,
      },
      { command: 'upload', offset: 0, bytes: [0], status: 200, uploadStatus: 'final', replaysFinal: true },
    ],
    object: 'identical',
  },
  {
    name: 'sends each X-Goog-* header once',
    size: 10,
    steps: [
      { command: 'upload', offset: 0, bytes: [0, 5], status: 200, uploadStatus: 'active', receivedAfter: 5 },
    ],
    object: 'absent',
  },
];

describe('resumable upload: offsets and finalize', () => {
  it.each(sessionCases.map((testCase, index) => [testCase.name, testCase, index] as const))(
    '%s',
    async (_title, testCase, index) => {
      const name = `files/${alice.uid}/session-${index}.bin`;
      const bytes = testBytes(testCase.size, index + 3);
      const uploadUrl = await startSession(server.url, name, testCase.declared ?? bytes.length, {
        headers: alice.auth,
      });
      let firstFinal: unknown;
      for (const step of testCase.steps) {
        const label = `${step.command} @${step.offset ?? '-'}`;
        const body = step.bytes ? bytes.subarray(step.bytes[0], step.bytes[1]) : undefined;
        const response = await uploadCommand(uploadUrl, alice.auth, step.command, step.offset, body);
        expect(response.status, label).toBe(step.status);
        // `Headers.get` joins repeated headers with ', ': one exact value proves it was sent once.
        if (step.uploadStatus)
          expect(response.headers.get('x-goog-upload-status'), label).toBe(step.uploadStatus);
        if (step.uploadStatus === 'final') {
          const resource: unknown = await response.json();
          if (step.replaysFinal) expect(resource, label).toEqual(firstFinal);
          else firstFinal = resource;
        }
        if (step.receivedAfter !== undefined) {
          const query = await uploadCommand(uploadUrl, alice.auth, 'query');
          expect(query.headers.get('x-goog-upload-size-received'), label).toBe(String(step.receivedAfter));
          expect(query.headers.get('x-goog-upload-status'), label).toMatch(/^(active|final)$/);
        }
        if (step.noObjectYet) {
          expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status, label).toBe(404);
        }
      }
      if (testCase.object === 'identical') expect(sha256(await download(name, alice))).toBe(sha256(bytes));
      else expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(404);
    },
  );
});

describe('resumable upload: faults', () => {
  it('resumes after a server restart from the durable byte count', async () => {
    const name = `files/${alice.uid}/survives-restart.bin`;
    const bytes = testBytes(700_000, 9);
    let uploadUrl = await startSession(server.url, name, bytes.length, { headers: alice.auth });
    await uploadCommand(uploadUrl, alice.auth, 'upload', 0, bytes.subarray(0, 262_144));
    await server.restart();
    uploadUrl = onCurrentServer(uploadUrl);
    // Like the SDK, retry a request that met a connection of the old server closing (a network error).
    const query = await retryOnNetworkError(() => uploadCommand(uploadUrl, alice.auth, 'query'));
    expect(query.status).toBe(200);
    expect(query.headers.get('x-goog-upload-status')).toBe('active');
    expect(query.headers.get('x-goog-upload-size-received')).toBe('262144');
    await uploadCommand(uploadUrl, alice.auth, 'upload', 262_144, bytes.subarray(262_144, 500_000));
    const last = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload, finalize',
      500_000,
      bytes.subarray(500_000),
    );
    expect(last.status).toBe(200);
    expect(((await last.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(bytes));
    expect(sha256(await download(name, alice))).toBe(sha256(bytes));
  });

  it('keeps the synced part of a chunk whose connection dropped', async () => {
    const name = `files/${alice.uid}/dropped.bin`;
    const bytes = testBytes(2_000_000, 10);
    const uploadUrl = onCurrentServer(
      await startSession(server.url, name, bytes.length, { headers: alice.auth }),
    );
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent >= 1_000_000) {
          // Stall, then drop the connection half-way through the chunk.
          await new Promise((resolve) => setTimeout(resolve, 200));
          controller.abort();
          return;
        }
        stream.enqueue(bytes.subarray(sent, sent + 100_000));
        sent += 100_000;
      },
    });
    await fetch(uploadUrl, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Command': 'upload', 'X-Goog-Upload-Offset': '0' },
      body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    let received = 0;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const query = await uploadCommand(uploadUrl, alice.auth, 'query');
      received = Number(query.headers.get('x-goog-upload-size-received'));
      if (received > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThanOrEqual(1_000_000);
    const rest = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload, finalize',
      received,
      bytes.subarray(received),
    );
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(bytes));
    expect(sha256(await download(name, alice))).toBe(sha256(bytes));
  });

  it('assembles many MiB from growing chunks, a dropped one and an overlap: byte-identical, right MD5', async () => {
    // On S3 this crosses every way bytes are stored: small first chunks kept as segments, then read back
    // into the first multipart part; a chunk cut by a dropped connection; a chunk resent over bytes
    // already received; and a last piece under S3's 5 MiB part minimum, sent as the last part at finalize.
    const MiB = 1024 * 1024;
    const name = `files/${alice.uid}/assembled.bin`;
    const bytes = testBytes(20 * MiB + 12_345, 13);
    const uploadUrl = onCurrentServer(
      await startSession(server.url, name, bytes.length, { headers: alice.auth }),
    );
    let offset = 0;
    for (const size of [MiB / 4, MiB / 2, MiB, 2 * MiB, 4 * MiB]) {
      const response = await uploadCommand(
        uploadUrl,
        alice.auth,
        'upload',
        offset,
        bytes.subarray(offset, offset + size),
      );
      expect(response.status).toBe(200);
      offset += size;
    }
    // 12 MiB announced, the connection dropped after 3 MiB of it.
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent >= 3 * MiB) {
          controller.abort();
          return;
        }
        stream.enqueue(bytes.subarray(offset + sent, offset + sent + MiB / 4));
        sent += MiB / 4;
      },
    });
    await fetch(uploadUrl, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Command': 'upload', 'X-Goog-Upload-Offset': String(offset) },
      body,
      signal: controller.signal,
      duplex: 'half',
    } as RequestInit).catch(() => undefined);
    let received = 0;
    await pollUntil(
      async () => {
        const query = await uploadCommand(uploadUrl, alice.auth, 'query');
        received = Number(query.headers.get('x-goog-upload-size-received'));
        return received > offset;
      },
      10_000,
      () => `no bytes of the dropped chunk were kept (received ${received})`,
    );
    expect(received).toBeLessThanOrEqual(offset + 3 * MiB);
    // Resent from below what was received: the overlap is dropped.
    const resentFrom = received - 100_000;
    const resent = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload',
      resentFrom,
      bytes.subarray(resentFrom, resentFrom + 9 * MiB),
    );
    expect(resent.status).toBe(200);
    const rest = resentFrom + 9 * MiB;
    const last = await uploadCommand(uploadUrl, alice.auth, 'upload, finalize', rest, bytes.subarray(rest));
    expect(last.status, await last.clone().text()).toBe(200);
    expect(((await last.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(bytes));
    expect(sha256(await download(name, alice))).toBe(sha256(bytes));
  });

  it('keeps md5Hash right after a refused chunk left uncounted bytes in the part', async () => {
    const name = `files/${alice.uid}/refused-then-resumed.bin`;
    const bytes = testBytes(300_000, 11);
    const uploadUrl = onCurrentServer(
      await startSession(server.url, name, bytes.length, { headers: alice.auth }),
    );
    await uploadCommand(uploadUrl, alice.auth, 'upload', 0, bytes.subarray(0, 100_000));
    // Other bytes, more than declared, in pieces that arrive apart: the first ones are written to the
    // part before the limit refuses the chunk, and stay there uncounted.
    const wrong = testBytes(250_000, 12);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent >= wrong.length) return stream.close();
        await new Promise((resolve) => setTimeout(resolve, 20));
        stream.enqueue(wrong.subarray(sent, sent + 50_000));
        sent += 50_000;
      },
    });
    const refused = await fetch(uploadUrl, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Command': 'upload', 'X-Goog-Upload-Offset': '100000' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(refused.status).toBe(400);
    const uploadId = new URL(uploadUrl).searchParams.get('upload_id')!;
    const stored = await withBlobStore(server, (blobs) => blobs.readPartHead(uploadId, 200_000));
    expect(stored.length).toBeGreaterThan(100_000);
    const query = await uploadCommand(uploadUrl, alice.auth, 'query');
    expect(query.headers.get('x-goog-upload-size-received')).toBe('100000');
    const rest = await uploadCommand(
      uploadUrl,
      alice.auth,
      'upload, finalize',
      100_000,
      bytes.subarray(100_000),
    );
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { md5Hash: string }).md5Hash).toBe(md5Base64(bytes));
    expect(sha256(await download(name, alice))).toBe(sha256(bytes));
  });
});

describe('resumable upload: who may do what', () => {
  it("refuses another user continuing someone's session (403), no user (401), an unknown id (404)", async () => {
    const uploadUrl = onCurrentServer(
      await startSession(server.url, `files/${alice.uid}/mine.bin`, 10, { headers: alice.auth }),
    );
    for (const command of ['query', 'upload', 'upload, finalize', 'finalize']) {
      const response = await uploadCommand(uploadUrl, bob.auth, command, 0, testBytes(10));
      expect(response.status, command).toBe(403);
    }
    expect((await uploadCommand(uploadUrl, {}, 'query')).status).toBe(401);
    const unknown = new URL(uploadUrl);
    unknown.searchParams.set('upload_id', 'AAAAAAAAAAAAAAAAAAAAAA');
    expect((await uploadCommand(unknown.toString(), alice.auth, 'query')).status).toBe(404);
    const otherName = new URL(uploadUrl);
    otherName.searchParams.set('name', `files/${alice.uid}/other.bin`);
    expect((await uploadCommand(otherName.toString(), alice.auth, 'query')).status).toBe(404);
    // Nothing was written by the refused requests.
    const query = await uploadCommand(uploadUrl, alice.auth, 'query');
    expect(query.headers.get('x-goog-upload-size-received')).toBe('0');
  });

  it("refuses to start into someone else's folder or outside the writable areas (403)", async () => {
    expect(
      (await startResumable(server.url, `files/${bob.uid}/x.bin`, 10, { headers: alice.auth })).status,
    ).toBe(403);
    expect((await startResumable(server.url, 'shared/x.bin', 10, { headers: alice.auth })).status).toBe(403);
    expect((await startResumable(server.url, `files/${alice.uid}/x.bin`, 10)).status).toBe(401);
  });

  it('refuses a thumbnail session declared over 100000 bytes at start (403)', async () => {
    const response = await startResumable(
      server.url,
      `thumbnails/${alice.uid}/big.png`,
      THUMBNAIL_MAX_BYTES + 1,
      {
        headers: alice.auth,
        contentType: 'image/png',
      },
    );
    expect(response.status).toBe(403);
  });

  it('refuses a thumbnail that is not an image at finalize (403, status final) and ends the session', async () => {
    const name = `thumbnails/${alice.uid}/fake.png`;
    const bytes = Buffer.from('definitely not a png');
    const uploadUrl = await startSession(server.url, name, bytes.length, {
      headers: alice.auth,
      contentType: 'image/png',
    });
    const response = await uploadCommand(uploadUrl, alice.auth, 'upload, finalize', 0, bytes);
    expect(response.status).toBe(403);
    expect(response.headers.get('x-goog-upload-status')).toBe('final');
    expect((await fetch(objectUrl(server.url, name), { headers: alice.auth })).status).toBe(404);
    const query = await uploadCommand(uploadUrl, alice.auth, 'query');
    expect(query.headers.get('x-goog-upload-status')).toBe('cancelled');
  });

  it('accepts a real image thumbnail through the resumable protocol', async () => {
    const name = `thumbnails/${alice.uid}/real.png`;
    const png = makePng(50_000);
    const uploadUrl = await startSession(server.url, name, png.length, {
      headers: alice.auth,
      contentType: 'image/png',
    });
    const response = await uploadCommand(uploadUrl, alice.auth, 'upload, finalize', 0, png);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { contentType: string }).contentType).toBe('image/png');
  });

  it('refuses malformed commands (400)', async () => {
    const uploadUrl = await startSession(server.url, `files/${alice.uid}/commands.bin`, 10, {
      headers: alice.auth,
    });
    expect((await uploadCommand(uploadUrl, alice.auth, 'explode')).status).toBe(400);
    expect((await uploadCommand(uploadUrl, alice.auth, 'upload', undefined, testBytes(3))).status).toBe(400);
    const noLength = await fetch(new URL(uploadUrl).origin + new URL(uploadUrl).pathname + `?name=x`, {
      method: 'POST',
      headers: { ...alice.auth, 'X-Goog-Upload-Protocol': 'resumable', 'X-Goog-Upload-Command': 'start' },
    });
    expect(noLength.status).toBe(400);
  });

  it('cancels a session on request, removing its bytes', async () => {
    const uploadUrl = await startSession(server.url, `files/${alice.uid}/cancel.bin`, 10, {
      headers: alice.auth,
    });
    const uploadId = new URL(uploadUrl).searchParams.get('upload_id')!;
    await uploadCommand(uploadUrl, alice.auth, 'upload', 0, testBytes(5));
    expect(await uploadIdsWithBytes()).toContain(uploadId);
    const cancel = await uploadCommand(uploadUrl, alice.auth, 'cancel');
    expect(cancel.headers.get('x-goog-upload-status')).toBe('cancelled');
    expect(await uploadIdsWithBytes()).not.toContain(uploadId);
    expect((await uploadCommand(uploadUrl, alice.auth, 'upload', 5, testBytes(5))).status).toBe(400);
  });

  it('expires sessions 24 hours after their start, removing their bytes', async () => {
    const uploadUrl = onCurrentServer(
      await startSession(server.url, `files/${alice.uid}/abandoned.bin`, 10, { headers: alice.auth }),
    );
    const uploadId = new URL(uploadUrl).searchParams.get('upload_id')!;
    await uploadCommand(uploadUrl, alice.auth, 'upload', 0, testBytes(5));
    const hour = 60 * 60 * 1000;
    const soon = await withStorageSweeper(server, (storage) =>
      storage.sweepExpiredUploads(Date.now() + 23 * hour),
    );
    expect(soon).toBe(0);
    expect(await uploadIdsWithBytes()).toContain(uploadId);
    const aDayLater = Date.now() + 24 * hour + 60_000;
    const swept = await withStorageSweeper(server, (sweeper) => sweeper.sweepExpiredUploads(aDayLater));
    expect(swept).toBeGreaterThanOrEqual(1);
    expect(await uploadIdsWithBytes()).not.toContain(uploadId);
    expect((await uploadCommand(uploadUrl, alice.auth, 'query')).status).toBe(404);
  });
});

describe('orphaned bytes', () => {
  it('removes bytes no row refers to once they are a day old, and nothing else', async () => {
    // What a crash leaves: a blob whose row was never committed, a part without a session, and the staged
    // bytes of a write still under way (an instance that died mid-upload), made through the store itself
    // so the test holds for every driver.
    const orphanPartId = 'OrphanedUploadId_0123';
    const { orphanKey, release } = await withBlobStore(server, async (blobs) => {
      const { key } = await putBytes(blobs, testBytes(11, 3));
      await blobs.createPart(orphanPartId);
      await blobs.writePart(
        orphanPartId,
        0,
        (async function* () {
          yield testBytes(14, 4);
        })(),
      );
      return { orphanKey: key, release: await startHangingWrite() };
    });
    const blobKeys = () => withBlobStore(server, (blobs) => storedIds(blobs.listBlobs()));

    // What must stay: a stored object and a live session's part.
    const kept = testBytes(3000, 9);
    const keptName = `files/${alice.uid}/kept-through-sweep.bin`;
    const keptUrl = await startSession(server.url, keptName, kept.length, { headers: alice.auth });
    expect((await uploadCommand(keptUrl, alice.auth, 'upload, finalize', 0, kept)).status).toBe(200);
    const liveUrl = await startSession(server.url, `files/${alice.uid}/still-going.bin`, 10, {
      headers: alice.auth,
    });
    expect((await uploadCommand(liveUrl, alice.auth, 'upload', 0, testBytes(4))).status).toBe(200);
    const liveId = new URL(liveUrl).searchParams.get('upload_id')!;

    const young = await withStorageSweeper(server, (sweeper) => sweeper.sweepOrphans(Date.now()));
    expect(young).toEqual({ blobs: 0, parts: 0, staging: 0 });
    expect(await blobKeys()).toContain(orphanKey);
    expect(await uploadIdsWithBytes()).toContain(orphanPartId);

    const aDayLater = Date.now() + 25 * 60 * 60 * 1000;
    const swept = await withStorageSweeper(server, (sweeper) => sweeper.sweepOrphans(aDayLater));
    // At least these three (earlier tests' restarts may have left more of their own).
    expect(swept.blobs).toBeGreaterThanOrEqual(1);
    expect(swept.parts).toBeGreaterThanOrEqual(1);
    expect(swept.staging).toBeGreaterThanOrEqual(1);
    expect(await blobKeys()).not.toContain(orphanKey);
    expect(await uploadIdsWithBytes()).not.toContain(orphanPartId);
    await release();

    expect((await download(keptName, alice)).equals(kept)).toBe(true);
    expect(await uploadIdsWithBytes()).toContain(liveId);
    const query = await uploadCommand(liveUrl, alice.auth, 'query');
    expect(query.headers.get('x-goog-upload-size-received')).toBe('4');
  });
});

/**
 * Starts a blob write that stays open (its staged bytes in place, as after a crash mid-write) until the
 * returned function ends it; the write then fails and must leave nothing. The bytes exceed one S3
 * multipart part, so the S3 store has begun its multipart upload by the time this resolves.
 */
async function startHangingWrite(): Promise<() => Promise<void>> {
  let staged!: () => void;
  const stagedNow = new Promise<void>((resolve) => (staged = resolve));
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const store = await createBlobStore(server.config.blobStorage, server.config.dataDir);
  const write = store.blobs.write(
    (async function* () {
      yield testBytes(9 * 1024 * 1024, 5);
      yield testBytes(9 * 1024 * 1024, 6);
      staged();
      await ended;
      throw new Error('the instance went away');
    })(),
  );
  const settled = write.then(
    () => 'written',
    (error: Error) => error.message,
  );
  await Promise.race([stagedNow, settled]);
  return async () => {
    end();
    expect(await settled).toBe('the instance went away');
    store.close();
  };
}

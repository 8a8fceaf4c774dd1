import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpClient, type SignedInClient } from '../../../test/support/clients';
import { startTestServer, testDatabaseEngine, type TestServer } from '../../../test/support/test-server';
import { CuttingProxy, sha256, testStorage, type SentRequest } from './integration.testing';
import { getDownloadURL, getMetadata, uploadBytesResumable } from './operations';
import { ref } from './reference';
import type { UploadTaskSnapshot } from './upload-task';

/**
 * The upload task against the real server: big files, pause/resume, a connection cut mid-chunk, a server
 * restart mid-upload, and two uploads racing for one name. Every object is checked byte for byte.
 */
const MiB = 1024 * 1024;
const big = randomBytes(50 * MiB);

let server: TestServer;
let alice: SignedInClient;

beforeAll(async () => {
  server = await startTestServer();
  alice = await signUpClient(server.url, 'alice');
  // Storage needs no live socket; one reconnecting across server.restart() would only slow the stop.
  alice.client.close();
});
afterAll(async () => {
  await server?.stop();
});

const filesOf = (user: SignedInClient, name: string) => `files/${user.user.uid}/${name}`;

async function downloadedHash(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return sha256(new Uint8Array(await response.arrayBuffer()));
}

/** Chunks (upload / upload, finalize / finalize) the client sent, as `command@offset+length`. */
const chunkLog = (sent: SentRequest[]) =>
  sent
    .filter(
      (request) => request.command !== null && request.command !== 'start' && request.command !== 'query',
    )
    .map((request) => `${request.command}@${request.offset}+${request.length}`);

describe(`upload task against the server (${testDatabaseEngine()})`, () => {
  it('uploads 50 MB resumably, in growing chunks, and the download is byte-identical', async () => {
    const { storage, sent } = testStorage(server.url, () => alice.client.auth.getIdToken());
    const target = ref(storage, filesOf(alice, 'big/fifty.bin'));
    const task = uploadBytesResumable(target, big, { contentType: 'application/x-test' });
    const progress: number[] = [];
    task.on('state_changed', (snapshot) => progress.push(snapshot.bytesTransferred));
    const snapshot = await task;

    expect(snapshot.state).toBe('success');
    expect(snapshot.bytesTransferred).toBe(big.byteLength);
    expect(snapshot.metadata).toMatchObject({
      fullPath: target.fullPath,
      size: big.byteLength,
      contentType: 'application/x-test',
      bucket: 'dojo',
    });
    // Per chunk: 256K, 512K, 1M, 2M, 4M, 8M, 16M, 16M, then the rest.
    expect(progress).toEqual([
      0, 262_144, 786_432, 1_835_008, 3_932_160, 8_126_464, 16_515_072, 33_292_288, 50_069_504, 52_428_800,
    ]);
    // Every chunk went out as one request, with the options under which Node's fetch sends the bytes
    // without teeing and copying them again (send-request.ts); nothing was retried.
    const chunks = sent.filter((request) => request.command?.startsWith('upload'));
    expect(chunks.map((request) => request.length)).toEqual(
      progress.slice(1).map((end, index) => end - (progress[index] ?? 0)),
    );
    for (const chunk of chunks) expect(chunk).toMatchObject({ status: 200, redirect: 'error', window: null });
    const url = await getDownloadURL(target);
    expect(await downloadedHash(url)).toBe(sha256(big));
  });

  it('pauses mid-upload (aborting the chunk in flight) and resumes from what the server holds', async () => {
    const { storage, sent, recorder } = testStorage(server.url, () => alice.client.auth.getIdToken());
    const data = big.subarray(0, 12 * MiB);
    const target = ref(storage, filesOf(alice, 'paused.bin'));
    const states: string[] = [];
    // Pause as the 4 MiB chunk at 3932160 goes out: the pause aborts that request. From then on, every
    // request is checked as it goes out: none may while the task is paused, however long that lasts.
    const sentWhilePaused: unknown[] = [];
    recorder.onSend = (request) => {
      if (request.command === 'upload' && request.offset === 3_932_160) {
        recorder.onSend = (later) => {
          if (task.snapshot.state === 'paused') sentWhilePaused.push(later);
        };
        expect(task.pause()).toBe(true);
      }
    };
    const task = uploadBytesResumable(target, data);
    task.on('state_changed', (snapshot: UploadTaskSnapshot) => states.push(snapshot.state));
    await expect.poll(() => task.snapshot.state).toBe('paused');
    expect(task.snapshot.bytesTransferred).toBe(3_932_160);
    const sentAtPause = sent.length;
    // The aborted chunk has settled: a task that retried or went on after it would have sent by now.
    await expect.poll(() => sent[sentAtPause - 1]?.status).toBe('aborted');
    expect(task.resume()).toBe(true);
    const snapshot = await task;
    expect(sentWhilePaused).toEqual([]);

    expect(snapshot.state).toBe('success');
    expect(states).toEqual(expect.arrayContaining(['running', 'paused']));
    expect(states.at(-1)).toBe('running');
    expect(sent[sentAtPause - 1]?.status).toBe('aborted');
    // After an aborted request the task asks the server where it stands, then restarts at 256 KiB chunks.
    const afterResume = sent.slice(sentAtPause);
    expect(afterResume[0]?.command).toBe('query');
    expect(afterResume[0]?.sizeReceived).toBe(3_932_160);
    expect(afterResume[1]).toMatchObject({ command: 'upload', offset: 3_932_160, length: 262_144 });
    expect(await downloadedHash(await getDownloadURL(target))).toBe(sha256(data));
  });

  it('recovers from a connection cut mid-chunk by querying, and the object is byte-identical', async () => {
    const proxy = new CuttingProxy({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    const proxyUrl = await proxy.listen();
    try {
      const { storage, sent } = testStorage(proxyUrl, () => alice.client.auth.getIdToken());
      const data = big.subarray(5 * MiB, 13 * MiB);
      const target = ref(storage, filesOf(alice, 'cut.bin'));
      // Into the 2 MiB chunk at 1835008 (start request and headers come first).
      proxy.armCut(3 * MiB);
      const snapshot = await uploadBytesResumable(target, data);

      expect(snapshot.state).toBe('success');
      expect(proxy.cuts).toBe(1);
      const failed = sent.findIndex((request) => request.status === 'network-error');
      expect(failed).toBeGreaterThan(0);
      expect(sent[failed]?.command).toBe('upload');
      const query = sent[failed + 1];
      expect(query?.command).toBe('query');
      expect(sent[failed + 2]?.offset).toBe(query?.sizeReceived);
      expect(await downloadedHash(await getDownloadURL(target))).toBe(sha256(data));
    } finally {
      await proxy.close();
    }
  });

  it('continues from the durable offset after a server restart while paused', async () => {
    const { storage, sent, recorder } = testStorage(server.url, () => alice.client.auth.getIdToken());
    const data = big.subarray(10 * MiB, 22 * MiB);
    const target = ref(storage, filesOf(alice, 'restart-paused.bin'));
    recorder.onSend = (request) => {
      if (request.command === 'upload' && request.offset === 1_835_008) {
        recorder.onSend = undefined;
        task.pause();
      }
    };
    const task = uploadBytesResumable(target, data);
    await expect.poll(() => task.snapshot.state).toBe('paused');
    const sentAtPause = sent.length;

    await server.restart();
    expect(task.resume()).toBe(true);
    const snapshot = await task;

    expect(snapshot.state).toBe('success');
    const afterResume = sent.slice(sentAtPause);
    const query = afterResume.find((request) => request.command === 'query' && request.status === 200);
    // The server kept the 1835008 bytes it had acknowledged across the restart.
    expect(query?.sizeReceived).toBe(1_835_008);
    const firstChunk = afterResume.find((request) => request.command?.startsWith('upload'));
    expect(firstChunk?.offset).toBe(1_835_008);
    expect(chunkLog(sent).filter((line) => line.startsWith('upload@0+'))).toHaveLength(1);
    expect(await downloadedHash(await getDownloadURL(target))).toBe(sha256(data));
  });

  it('survives a server restart while a chunk is in flight, without starting over', async () => {
    const { storage, sent, recorder } = testStorage(server.url, () => alice.client.auth.getIdToken());
    const data = big.subarray(20 * MiB, 36 * MiB);
    const target = ref(storage, filesOf(alice, 'restart-running.bin'));
    let restarting: Promise<unknown> | undefined;
    // Restart as the 2 MiB chunk goes out; the task is not paused and must find its own way back.
    recorder.onSend = (request) => {
      if (request.command === 'upload' && request.offset === 1_835_008) {
        recorder.onSend = undefined;
        restarting = server.restart();
      }
    };
    const snapshot = await uploadBytesResumable(target, data);
    await restarting;

    expect(snapshot.state).toBe('success');
    const failedAt = sent.findIndex((request) => typeof request.status !== 'number' || request.status >= 500);
    expect(failedAt).toBeGreaterThan(0);
    const query = sent
      .slice(failedAt)
      .find((request) => request.command === 'query' && request.status === 200);
    expect(query?.sizeReceived).toBeGreaterThanOrEqual(1_835_008);
    expect(chunkLog(sent).filter((line) => line.startsWith('upload@0+'))).toHaveLength(1);
    expect(await downloadedHash(await getDownloadURL(target))).toBe(sha256(data));
  });

  it('two uploads racing for one name leave exactly one of them, never a mix', async () => {
    const name = filesOf(alice, 'race.bin');
    const first = randomBytes(6 * MiB);
    const second = randomBytes(6 * MiB);
    const [a, b] = await Promise.allSettled([
      uploadBytesResumable(ref(alice.client.storage, name), first),
      uploadBytesResumable(ref(alice.client.storage, name), second),
    ]);
    expect([a.status, b.status]).toContain('fulfilled');
    const hash = await downloadedHash(await getDownloadURL(ref(alice.client.storage, name)));
    expect([sha256(first), sha256(second)]).toContain(hash);
    const metadata = await getMetadata(ref(alice.client.storage, name));
    expect(metadata.size).toBe(6 * MiB);
  });
});

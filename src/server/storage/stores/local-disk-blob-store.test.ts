import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalDiskBlobStore } from './local-disk-blob-store';

const UPLOAD_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const md5 = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('base64');

/** Bytes as a network body delivers them: many small pieces, some arriving late. */
async function* pieces(bytes: Uint8Array, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) {
    if (offset % (size * 8) === 0) await delay(1);
    yield bytes.subarray(offset, offset + size);
  }
}

/** Fails like a dropped connection after `keep` bytes. */
async function* cutAfter(bytes: Uint8Array, keep: number): AsyncGenerator<Uint8Array> {
  yield* pieces(bytes.subarray(0, keep), 50_000);
  throw new Error('aborted');
}

let root: string;
let store: LocalDiskBlobStore;
const partFile = () => path.join(root, 'uploads', `${UPLOAD_ID}.part`);

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dojo-blob-store-'));
  store = new LocalDiskBlobStore(root);
  await store.createPart(UPLOAD_ID);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(root, { recursive: true, force: true });
});

/**
 * Commits all of `bytes` as the part and expects their MD5, hashed as the bytes were written, or read back
 * from the file where the store could not trust what it hashed on the way.
 */
async function expectCommitted(
  store: LocalDiskBlobStore,
  bytes: Uint8Array,
  md5From: 'hashed as written' | 'read back',
): Promise<void> {
  const reads = vi.spyOn(fs, 'createReadStream');
  expect((await store.commitPart(UPLOAD_ID, bytes.length)).md5Base64).toBe(md5(bytes));
  if (md5From === 'read back') expect(reads).toHaveBeenCalled();
  else expect(reads).not.toHaveBeenCalled();
}

describe('LocalDiskBlobStore parts', () => {
  it('writes chunks larger than a batch in order and hashes them as they arrive, reading nothing back', async () => {
    const bytes = randomBytes(5 * 1024 * 1024 + 12_345);
    const split = 1024 * 1024 + 7;
    expect(await store.writePart(UPLOAD_ID, 0, pieces(bytes.subarray(0, split)))).toEqual({ written: split });
    expect(await store.writePart(UPLOAD_ID, split, pieces(bytes.subarray(split), 10_000))).toEqual({
      written: bytes.length - split,
    });
    const reads = vi.spyOn(fs, 'createReadStream');
    const blob = await store.commitPart(UPLOAD_ID, bytes.length);
    expect(reads).not.toHaveBeenCalled();
    expect(blob).toMatchObject({ size: bytes.length, md5Base64: md5(bytes) });
    expect((await readFile(partFile())).equals(bytes)).toBe(true);
    // A finalize retried after a later failure (the quota) gets the same answer.
    expect((await store.commitPart(UPLOAD_ID, bytes.length)).md5Base64).toBe(md5(bytes));
  });

  it('counts and hashes the bytes before a dropped connection, then continues from them', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const cut = await store.writePart(UPLOAD_ID, 0, cutAfter(bytes, 1_500_000));
    expect(cut.written).toBe(1_500_000);
    expect(cut.error).toBeInstanceOf(Error);
    await store.writePart(UPLOAD_ID, 1_500_000, pieces(bytes.subarray(1_500_000)));
    await expectCommitted(store, bytes, 'hashed as written');
  });

  it('counts only whole batches written before a write fails, and re-reads at commit', async () => {
    const bytes = randomBytes(3 * 1024 * 1024);
    const probe = await fsp.open(partFile(), 'r');
    const fileHandle = Object.getPrototypeOf(probe) as { writev: (...args: unknown[]) => Promise<unknown> };
    await probe.close();
    const writev = fileHandle.writev;
    let calls = 0;
    vi.spyOn(fileHandle, 'writev').mockImplementation(function (this: unknown, ...args: unknown[]) {
      calls += 1;
      return calls === 2 ? Promise.reject(new Error('EIO')) : writev.apply(this, args);
    });
    const failed = await store.writePart(UPLOAD_ID, 0, pieces(bytes));
    expect(failed).toMatchObject({ written: 1024 * 1024, error: new Error('EIO') });
    vi.restoreAllMocks();
    await store.writePart(UPLOAD_ID, 1024 * 1024, pieces(bytes.subarray(1024 * 1024)));
    await expectCommitted(store, bytes, 'read back');
  });

  it('re-reads after a rewind over bytes that were written but never counted', async () => {
    const bytes = randomBytes(2_000_000);
    await store.writePart(UPLOAD_ID, 0, pieces(bytes.subarray(0, 500_000)));
    // A chunk the service refused part-way: its bytes were written, but the count stayed at 500000.
    await store.writePart(UPLOAD_ID, 500_000, pieces(randomBytes(700_000)));
    await store.writePart(UPLOAD_ID, 500_000, pieces(bytes.subarray(500_000)));
    await expectCommitted(store, bytes, 'read back');
  });

  it('re-reads when committing fewer bytes than were written (an interrupted chunk not counted)', async () => {
    const bytes = randomBytes(1_000_000);
    await store.writePart(UPLOAD_ID, 0, pieces(bytes));
    const blob = await store.commitPart(UPLOAD_ID, 600_000);
    expect(blob).toMatchObject({ size: 600_000, md5Base64: md5(bytes.subarray(0, 600_000)) });
  });

  it('re-reads after a restart (a new store on the same directory)', async () => {
    const bytes = randomBytes(1_500_000);
    await store.writePart(UPLOAD_ID, 0, pieces(bytes.subarray(0, 700_000)));
    const restarted = new LocalDiskBlobStore(root);
    await restarted.writePart(UPLOAD_ID, 700_000, pieces(bytes.subarray(700_000)));
    await expectCommitted(restarted, bytes, 'read back');
  });

  it('re-reads a part that changed behind its back (another instance wrote to it)', async () => {
    const bytes = randomBytes(800_000);
    await store.writePart(UPLOAD_ID, 0, pieces(bytes));
    const changed = Buffer.from(bytes);
    changed.fill(1, 100_000, 200_000);
    const before = await stat(partFile());
    await writeFile(partFile(), changed);
    // File timestamps can be coarser than the time between two writes; make the change visible.
    await utimes(partFile(), before.atime, new Date(before.mtimeMs + 1000));
    expect((await store.commitPart(UPLOAD_ID, changed.length)).md5Base64).toBe(md5(changed));
  });
});

import { UPLOAD_ID_PATTERN } from '../../../common';
import { randomBytes } from 'node:crypto';
import { PassingBytes } from './passing-bytes';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, PartWrite, StoredBlob, StoredEntry } from './blob-store';
import { writeBatches, writeFully } from '../uploads/batched-part-writer';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/private-files';
import { syncDirectory, syncFile } from '../../core/durable-fs';
import { RecentMap } from './recent-map';
import { createMd5, type Md5 } from './md5';

const BLOB_KEY = /^[0-9a-f]{32}$/;

export class LocalDiskBlobStore implements BlobStore {
  private readonly blobsDir: string;
  private readonly tempDir: string;
  private readonly partsDir: string;
  private readonly partHashes = new RecentMap<PartHash>(MAX_TRACKED_PARTS);

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tempDir = path.join(root, 'tmp');
    this.partsDir = path.join(root, 'uploads');
    for (const dir of [this.blobsDir, this.tempDir, this.partsDir]) {
      fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    }
  }

  async checkReachable(): Promise<void> {
    for (const dir of [this.blobsDir, this.tempDir, this.partsDir]) {
      await fsp.access(dir, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
    }
  }

  async write(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { headBytes?: number } = {},
  ) {
    const key = newBlobKey();
    const temp = path.join(this.tempDir, `${key}.part`);
    const bytes = new PassingBytes(options.headBytes);
    const handle = await fsp.open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      try {
        for await (const chunk of source) {
          if (chunk.byteLength === 0) continue;
          await writeFully(handle, chunk, bytes.size);
          bytes.see(chunk);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      const final = this.pathOf(key);
      await this.makeShardDir(final);
      // rename is atomic on one file system: readers see no blob or the whole blob.
      await fsp.rename(temp, final);
      // The new name is durable only once its directory is synced; the row that refers to it commits next.
      await syncDirectory(path.dirname(final));
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return bytes.result(key);
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(key), range);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async createPart(uploadId: string): Promise<void> {
    const handle = await fsp.open(this.partOf(uploadId), 'wx', PRIVATE_FILE_MODE);
    await handle.close();
    // The session row commits next: after a power loss its file must be there to resume into.
    await syncDirectory(this.partsDir);
  }

  async writePart(uploadId: string, position: number, source: AsyncIterable<Uint8Array>): Promise<PartWrite> {
    // Taken out for the whole write and put back only once it is durable: a write that fails in any way
    // leaves no hash state behind, and commitPart re-reads the file instead.
    const tracked = this.partHashes.take(uploadId);
    const handle = await fsp.open(this.partOf(uploadId), 'r+');
    try {
      const hash = await hashOfFirst(position, handle, tracked);
      await handle.truncate(position);
      const result = await writeBatches(handle, position, source, hash);
      // Data (not metadata timestamps) must be durable before the bytes are counted as received.
      await handle.datasync();
      if (hash && result.hashed) {
        const stat = await handle.stat({ bigint: true });
        if (Number(stat.size) === position + result.written) {
          this.partHashes.set(uploadId, { offset: position + result.written, hash, file: fileStateOf(stat) });
        }
      }
      return result.error === undefined
        ? { written: result.written }
        : { written: result.written, error: result.error };
    } finally {
      await handle.close();
    }
  }

  async readPartHead(uploadId: string, length: number): Promise<Buffer> {
    const handle = await fsp.open(this.partOf(uploadId), 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async commitPart(uploadId: string, size: number): Promise<StoredBlob> {
    const part = this.partOf(uploadId);
    const tracked = this.partHashes.get(uploadId);
    let md5Base64: string | undefined;
    const handle = await fsp.open(part, 'r+');
    try {
      const stat = await handle.stat({ bigint: true });
      // The hash kept while the chunks arrived, if it covers exactly these bytes and nothing wrote to the
      // file since. A copy is digested, so a finalize that fails later (the quota) can be retried.
      if (tracked?.offset === size && tracked.file === fileStateOf(stat)) {
        md5Base64 = await tracked.hash.copy().digestBase64();
      }
      // Anything past `size` was never counted as received (an interrupted chunk): it is not the object's.
      if (Number(stat.size) !== size) {
        await handle.truncate(size);
        await handle.sync();
      }
    } finally {
      await handle.close();
    }
    // No usable hash (after a restart, a chunk refused or cut short, a write by another instance): re-read.
    md5Base64 ??= await md5OfFile(part, size);
    const key = newBlobKey();
    const final = this.pathOf(key);
    await this.makeShardDir(final);
    // A hard link makes the blob without copying; the session writes no more once it is final, so the
    // shared bytes never change. Fall back to a copy (synced) where links are not supported.
    await fsp.link(part, final).catch(async () => {
      await fsp.copyFile(part, final);
      await syncFile(final);
    });
    await syncDirectory(path.dirname(final));
    return { key, size, md5Base64 };
  }

  async deletePart(uploadId: string): Promise<void> {
    this.partHashes.delete(uploadId);
    await fsp.rm(this.partOf(uploadId), { force: true });
  }

  async *listBlobs(): AsyncIterable<StoredEntry> {
    for (const shard of await fsp.readdir(this.blobsDir)) {
      yield* entriesIn(path.join(this.blobsDir, shard), (name) => (BLOB_KEY.test(name) ? name : undefined));
    }
  }

  async *listParts(): AsyncIterable<StoredEntry> {
    yield* entriesIn(this.partsDir, (name) => {
      const uploadId = name.endsWith('.part') ? name.slice(0, -'.part'.length) : '';
      return UPLOAD_ID_PATTERN.test(uploadId) ? uploadId : undefined;
    });
  }

  async removeStaleStaging(before: number): Promise<number> {
    let removed = 0;
    for await (const entry of entriesIn(this.tempDir, (name) => name)) {
      if (entry.changedAt >= before) continue;
      await fsp.rm(path.join(this.tempDir, entry.id), { force: true });
      removed += 1;
    }
    return removed;
  }

  /** Creates the shard directory of `file` if needed, durably (its name lives in the blobs directory). */
  private async makeShardDir(file: string): Promise<void> {
    if (await fsp.mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE })) {
      await syncDirectory(this.blobsDir);
    }
  }

  private pathOf(key: string): string {
    if (!BLOB_KEY.test(key)) throw new Error('Invalid blob key');
    return path.join(this.blobsDir, key.slice(0, 2), key);
  }

  private partOf(uploadId: string): string {
    if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new Error('Invalid upload id');
    return path.join(this.partsDir, `${uploadId}.part`);
  }
}

const newBlobKey = (): string => randomBytes(16).toString('hex');

/**
 * The files of `dir` that `idOf` recognises. ctime counts as a change: linking a part as a blob (finalize)
 * or renaming staged bytes into place sets it, while the file's mtime may be much older.
 */
async function* entriesIn(
  dir: string,
  idOf: (name: string) => string | undefined,
): AsyncIterable<StoredEntry> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    const id = idOf(name);
    if (id === undefined) continue;
    const stat = await fsp.stat(path.join(dir, name)).catch(() => undefined);
    if (stat?.isFile()) yield { id, changedAt: Math.max(stat.mtimeMs, stat.ctimeMs) };
  }
}

async function md5OfFile(file: string, size: number): Promise<string> {
  const hash = createMd5();
  if (size > 0) {
    for await (const chunk of fs.createReadStream(file, { start: 0, end: size - 1, highWaterMark: MIB })) {
      hash.update([chunk as Buffer]);
    }
  }
  return hash.digestBase64();
}

const MIB = 1024 * 1024;

/**
 * What identifies a file's bytes without reading them: a write or truncate changes its size or mtime. A
 * hard link changes only ctime, so the blob made at finalize does not make the state stale.
 */
const fileStateOf = (stat: fs.BigIntStats): string => `${stat.ino}:${stat.size}:${stat.mtimeNs}`;

/** The hash of a part's first `position` bytes, when it can be had without reading them. */
async function hashOfFirst(
  position: number,
  handle: fsp.FileHandle,
  tracked: PartHash | undefined,
): Promise<Md5 | undefined> {
  if (position === 0) return createMd5();
  if (tracked?.offset !== position) return undefined;
  return tracked.file === fileStateOf(await handle.stat({ bigint: true })) ? tracked.hash : undefined;
}

/** MD5 state of the first `offset` bytes of a part, as this instance wrote them. */
interface PartHash {
  offset: number;
  hash: Md5;
  /** `fileStateOf` the part right after those bytes were synced. */
  file: string;
}

/**
 * The hash states of the parts this instance is writing are kept (at most this many, in a `RecentMap`), so
 * finalize need not read the bytes again: a dropped or missing state (a restart, a session continued on
 * another instance) costs one re-read at finalize, never a wrong hash.
 */
const MAX_TRACKED_PARTS = 1000;

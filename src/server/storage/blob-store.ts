import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface StoredBlob {
  key: string;
  size: number;
  /** base64 MD5, as the storage protocol reports it. */
  md5Base64: string;
}

export interface WrittenBlob extends StoredBlob {
  /** The first bytes (up to the `headBytes` asked for), to judge a file by its content. */
  head: Buffer;
}

export interface PartWrite {
  /** Bytes written and synced; they count even when the source failed part-way. */
  written: number;
  /** Set when the source threw (a dropped connection, a limit); the bytes before it are kept. */
  error?: unknown;
}

/**
 * Where object bytes live. Keys are random and never derived from object names, so no name can reach
 * the file system. Local disk now; an S3 implementation can replace it without touching callers
 * (parts map onto multipart-upload parts, `commitPart` onto completing the upload).
 */
export interface BlobStore {
  /** Stores complete bytes under a new key; the blob exists only once fully written. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  /**
   * Streams bytes into a new blob. If the source throws, nothing is kept and the error is rethrown, so
   * a half-received body never becomes a blob.
   */
  write(source: AsyncIterable<Uint8Array>, options?: { headBytes?: number }): Promise<WrittenBlob>;
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;

  /** Creates the (empty) bytes of a resumable upload session. */
  createPart(uploadId: string): Promise<void>;
  /**
   * Writes the source at `position`, dropping anything stored beyond it first (bytes never counted as
   * received), and syncs before resolving, so what it reports survives a crash.
   */
  writePart(uploadId: string, position: number, source: AsyncIterable<Uint8Array>): Promise<PartWrite>;
  readPartHead(uploadId: string, length: number): Promise<Buffer>;
  /** Makes a new blob of the part's first `size` bytes. The part stays until `deletePart`. */
  commitPart(uploadId: string, size: number): Promise<StoredBlob>;
  deletePart(uploadId: string): Promise<void>;
}

const BLOB_KEY = /^[0-9a-f]{32}$/;
const UPLOAD_ID = /^[A-Za-z0-9_-]{16,64}$/;

export class LocalDiskBlobStore implements BlobStore {
  private readonly blobsDir: string;
  private readonly tempDir: string;
  private readonly partsDir: string;

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tempDir = path.join(root, 'tmp');
    this.partsDir = path.join(root, 'uploads');
    for (const dir of [this.blobsDir, this.tempDir, this.partsDir]) fs.mkdirSync(dir, { recursive: true });
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const { head: _head, ...blob } = await this.write([bytes]);
    return blob;
  }

  async write(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { headBytes?: number } = {},
  ) {
    const key = newBlobKey();
    const temp = path.join(this.tempDir, `${key}.part`);
    const headBytes = options.headBytes ?? 0;
    const hash = createHash('md5');
    const heads: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    const handle = await fsp.open(temp, 'wx');
    try {
      try {
        for await (const chunk of source) {
          if (chunk.byteLength === 0) continue;
          if (headLength < headBytes) {
            const take = Buffer.from(chunk.subarray(0, headBytes - headLength));
            heads.push(take);
            headLength += take.length;
          }
          hash.update(chunk);
          await writeFully(handle, chunk, size);
          size += chunk.byteLength;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      const final = this.pathOf(key);
      await fsp.mkdir(path.dirname(final), { recursive: true });
      // rename is atomic on one file system: readers see no blob or the whole blob.
      await fsp.rename(temp, final);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    return { key, size, md5Base64: hash.digest('base64'), head: Buffer.concat(heads) };
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(key), range);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async createPart(uploadId: string): Promise<void> {
    const handle = await fsp.open(this.partOf(uploadId), 'wx');
    await handle.close();
  }

  async writePart(uploadId: string, position: number, source: AsyncIterable<Uint8Array>): Promise<PartWrite> {
    const handle = await fsp.open(this.partOf(uploadId), 'r+');
    let written = 0;
    let error: unknown;
    try {
      await handle.truncate(position);
      try {
        for await (const batch of coalesce(source)) {
          await writeFully(handle, batch, position + written);
          written += batch.byteLength;
        }
      } catch (sourceError) {
        error = sourceError;
      }
      // Data (not metadata timestamps) must be durable before the bytes are counted as received.
      await handle.datasync();
    } finally {
      await handle.close();
    }
    return error === undefined ? { written } : { written, error };
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
    const handle = await fsp.open(part, 'r+');
    try {
      // Anything past `size` was never counted as received (an interrupted chunk): it is not the object's.
      if ((await handle.stat()).size !== size) {
        await handle.truncate(size);
        await handle.sync();
      }
    } finally {
      await handle.close();
    }
    const hash = createHash('md5');
    if (size > 0) {
      for await (const chunk of fs.createReadStream(part, { start: 0, end: size - 1 })) {
        hash.update(chunk as Buffer);
      }
    }
    const key = newBlobKey();
    const final = this.pathOf(key);
    await fsp.mkdir(path.dirname(final), { recursive: true });
    // A hard link makes the blob without copying; the session writes no more once it is final, so the
    // shared bytes never change. Fall back to a copy where links are not supported.
    await fsp.link(part, final).catch(() => fsp.copyFile(part, final));
    return { key, size, md5Base64: hash.digest('base64') };
  }

  async deletePart(uploadId: string): Promise<void> {
    await fsp.rm(this.partOf(uploadId), { force: true });
  }

  private pathOf(key: string): string {
    if (!BLOB_KEY.test(key)) throw new Error('Invalid blob key');
    return path.join(this.blobsDir, key.slice(0, 2), key);
  }

  private partOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw new Error('Invalid upload id');
    return path.join(this.partsDir, `${uploadId}.part`);
  }
}

const newBlobKey = (): string => randomBytes(16).toString('hex');

/** Network reads arrive in ~64 KiB pieces; writing them in ~1 MiB batches saves most file-system round trips. */
const WRITE_BATCH_BYTES = 1024 * 1024;

async function* coalesce(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  try {
    for await (const chunk of source) {
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= WRITE_BATCH_BYTES) {
        yield Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
  } finally {
    // Whatever arrived before the source ended or failed is still written (and counted).
    if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
  }
}

async function writeFully(handle: fsp.FileHandle, chunk: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset, position + offset);
    offset += bytesWritten;
  }
}

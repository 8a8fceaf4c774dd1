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

/**
 * Where object bytes live. Keys are random and never derived from object names, so no name can reach
 * the file system. Local disk now; an S3 implementation can replace it without touching callers.
 */
export interface BlobStore {
  /** Stores complete bytes under a new key; the blob exists only once fully written. */
  put(bytes: Uint8Array): Promise<StoredBlob>;
  read(key: string, range?: { start: number; end: number }): Readable;
  delete(key: string): Promise<void>;
}

export class LocalDiskBlobStore implements BlobStore {
  private readonly blobsDir: string;
  private readonly tempDir: string;

  constructor(root: string) {
    this.blobsDir = path.join(root, 'blobs');
    this.tempDir = path.join(root, 'tmp');
    fs.mkdirSync(this.blobsDir, { recursive: true });
    fs.mkdirSync(this.tempDir, { recursive: true });
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const key = randomBytes(16).toString('hex');
    const temp = path.join(this.tempDir, `${key}.part`);
    const handle = await fsp.open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    const final = this.pathOf(key);
    await fsp.mkdir(path.dirname(final), { recursive: true });
    // rename is atomic on one file system: readers see no blob or the whole blob.
    await fsp.rename(temp, final);
    return { key, size: bytes.byteLength, md5Base64: createHash('md5').update(bytes).digest('base64') };
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.pathOf(key), range);
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!/^[0-9a-f]{32}$/.test(key)) throw new Error('Invalid blob key');
    return path.join(this.blobsDir, key.slice(0, 2), key);
  }
}

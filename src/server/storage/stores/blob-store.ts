import type { Readable } from 'node:stream';

export interface StoredBlob {
  key: string;
  size: number;
  /** base64 MD5, as the storage protocol reports it. */
  md5Base64: string;
}

interface WrittenBlob extends StoredBlob {
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
 * the file system. Implemented by `LocalDiskBlobStore` (local-disk-blob-store.ts); an S3 implementation can
 * replace it without touching callers (parts map onto multipart-upload parts, `commitPart` onto
 * completing the upload).
 */
export interface BlobStore {
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
  /** Up to `length` first bytes of a part, as far as they can be read before it is committed (S3: not those in multipart parts). */
  readPartHead(uploadId: string, length: number): Promise<Buffer>;
  /**
   * Makes a blob of the part's first `size` bytes. The part stays until `deletePart`; called again, it
   * makes another blob on disk, and on S3 answers the blob it completed before (while that exists).
   */
  commitPart(uploadId: string, size: number): Promise<StoredBlob>;
  deletePart(uploadId: string): Promise<void>;

  /**
   * Every stored blob and every part, with when each last appeared or changed (for the orphan sweep: a
   * crash between writing bytes and committing their row leaves bytes nothing refers to).
   */
  listBlobs(): AsyncIterable<StoredEntry>;
  listParts(): AsyncIterable<StoredEntry>;
  /**
   * Resolves when the store can take writes now, cheaply (no object is written); rejects with why not.
   * Readiness checks call it often.
   */
  checkReachable(): Promise<void>;
  /** Removes the staged bytes of writes that never finished (a crash mid-write) last touched before `before`. */
  removeStaleStaging(before: number): Promise<number>;
}

export interface StoredEntry {
  /** The blob key or the upload id. */
  id: string;
  /** ms since the epoch: the later of the last write and the last link or rename. */
  changedAt: number;
}

/** Stores complete bytes under a new key, through the store's streaming write: the blob exists only once fully written. */
export async function putBytes(store: Pick<BlobStore, 'write'>, bytes: Uint8Array): Promise<StoredBlob> {
  const { head: _head, ...blob } = await store.write(toSource(bytes));
  return blob;
}

async function* toSource(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}

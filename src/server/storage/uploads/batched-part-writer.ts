/** Writing a resumable upload's chunk into its part file: batched, gathered writes that keep memory flat. */

import type fsp from 'node:fs/promises';
import type { Md5 } from '../stores/md5';

/** Network reads arrive in ~64 KiB pieces; writing them in ~1 MiB batches saves most file-system round trips. */
const WRITE_BATCH_BYTES = 1024 * 1024;

interface BatchesWritten {
  /** Bytes written, in order from the start position, before the end or the first error. */
  written: number;
  error?: unknown;
  /** The hash took exactly the bytes written (false after a failed write or a failed hash). */
  hashed: boolean;
}

/**
 * Writes the source at `position` in batches, reading the next batch while the previous one is written
 * and hashed: at most one write and one hash in flight and one batch filling, so memory stays at about
 * two batches. A source error ends the reading, but what arrived before it is still written (and
 * counted); a write error ends both. Resolves only once no write is in flight.
 */
export async function writeBatches(
  handle: fsp.FileHandle,
  position: number,
  source: AsyncIterable<Uint8Array>,
  hash: Md5 | undefined,
): Promise<BatchesWritten> {
  let written = 0;
  let writeError: unknown;
  let failed = false;
  // Never rejects: a failed write is recorded and stops what follows.
  let inFlight: Promise<void> = Promise.resolve();
  // Never rejects either: a failed hash only means the part is hashed again from the file at finalize.
  let hashing: Promise<void> = Promise.resolve();
  let hashFailed = false;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;

  const startWrite = async (): Promise<void> => {
    await inFlight;
    if (failed) throw writeError;
    await hashing;
    const batch = pending;
    const batchBytes = pendingBytes;
    pending = [];
    pendingBytes = 0;
    if (hash) {
      hash.update(batch);
      hashing = hash.settled().then((hashedAll) => {
        if (!hashedAll) hashFailed = true;
      });
    }
    inFlight = writeAllOf(handle, batch, position + written).then(
      () => {
        written += batchBytes;
      },
      (error: unknown) => {
        failed = true;
        writeError = error;
      },
    );
  };

  let error: unknown;
  try {
    for await (const chunk of source) {
      if (chunk.byteLength === 0) continue;
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= WRITE_BATCH_BYTES) await startWrite();
    }
  } catch (sourceError) {
    error = sourceError;
  }
  try {
    if (pendingBytes > 0 && !failed) await startWrite();
  } catch {
    // The write error is reported below.
  }
  await inFlight;
  await hashing;
  if (failed) return { written, error: writeError, hashed: false };
  const hashed = !hashFailed;
  return error === undefined ? { written, hashed } : { written, error, hashed };
}

export async function writeFully(handle: fsp.FileHandle, chunk: Uint8Array, position: number): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset, position + offset);
    offset += bytesWritten;
  }
}

/**
 * One gathered write (writev) per batch rather than concatenating the pieces first: that copy doubled the
 * memory allocated per upload, and the garbage collection with it.
 */
async function writeAllOf(handle: fsp.FileHandle, chunks: Uint8Array[], position: number): Promise<void> {
  let rest = chunks;
  let at = position;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, at);
    at += bytesWritten;
    rest = withoutFirstBytes(rest, bytesWritten);
  }
}

function withoutFirstBytes(chunks: Uint8Array[], count: number): Uint8Array[] {
  const rest: Uint8Array[] = [];
  let skip = count;
  for (const chunk of chunks) {
    if (skip >= chunk.byteLength) {
      skip -= chunk.byteLength;
      continue;
    }
    rest.push(skip > 0 ? chunk.subarray(skip) : chunk);
    skip = 0;
  }
  return rest;
}

/**
 * The state of a resumable upload whose bytes go to S3 (docs/decisions/022-s3-storage.md,
 * 032-upload-throughput.md): where each acknowledged byte is, worked out from the names of the objects
 * under `uploads/<uploadId>/`, so that every instance reads the same state and the next chunk may reach any
 * of them. The S3 store (stores/s3-blob-store.ts) lists, writes and reads those objects; this module only
 * names them and reasons about them.
 *
 * Under the upload's prefix: `session` (which blob key and S3 multipart upload the bytes assemble into),
 * and for the acknowledged bytes either multipart parts of that upload, each with a marker
 * `<start>-<end>.part` written once the part is stored, or (pieces under S3's 5 MiB part minimum) segment
 * objects `<start>`.
 */

import type { Md5 } from '../stores/md5';
import { RecentMap } from '../stores/recent-map';

/** The name of the session marker under the upload's prefix. */
export const SESSION_MARKER = 'session';
/** S3's minimum size of every multipart part but the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;
const OFFSET_DIGITS = 15;
const SEGMENT_NAME = /^\d{15}$/;
const PART_MARKER_NAME = /^(\d{15})-(\d{15})\.part$/;

const digits = (offset: number): string => String(offset).padStart(OFFSET_DIGITS, '0');

/** The name, under the upload's prefix, of the segment object holding bytes from `offset`. */
export const segmentName = (offset: number): string => digits(offset);

/** The name, under the upload's prefix, of the marker of the part holding bytes `start`..`end`. */
export const partMarkerName = (start: number, end: number): string => `${digits(start)}-${digits(end)}.part`;

/** Where a resumable session's bytes are assembled: a multipart upload of its future blob. */
export interface UploadSession {
  blobKey: string;
  multipartId: string;
}

/** Bytes `start`..`end` of an upload: in a segment object, or in the multipart part a marker names. */
export interface Entry {
  kind: 'segment' | 'part';
  key: string;
  start: number;
  end: number;
}

export function entryOf(name: string, key: string, size: number): Entry | undefined {
  if (SEGMENT_NAME.test(name)) return { kind: 'segment', key, start: Number(name), end: Number(name) + size };
  const marker = PART_MARKER_NAME.exec(name);
  return marker ? { kind: 'part', key, start: Number(marker[1]), end: Number(marker[2]) } : undefined;
}

/**
 * A part's number follows from where it starts: every part but the last is at least 5 MiB, so numbers
 * grow with the offset, and a part written again at the same offset replaces the one before.
 */
export function partNumberAt(start: number): number {
  const number = Math.floor(start / MIN_PART_BYTES) + 1;
  if (number > MAX_PART_NUMBER) throw new Error('The upload is larger than an S3 multipart upload can hold.');
  return number;
}

/**
 * The entries that hold an upload's bytes from 0 up to `limit`, in order: at each offset a part marker
 * wins over a segment (the segments a part took in stay until deletePart); a segment counts up to where
 * the next entry starts (a later write at a lower offset supersedes the rest of it). `tailStart`: where
 * the bytes after the last part begin.
 */
export function chainOf(entries: Entry[], limit: number): { items: Entry[]; end: number; tailStart: number } {
  const starts = [...new Set(entries.map((entry) => entry.start))].sort((a, b) => a - b);
  const items: Entry[] = [];
  let cursor = 0;
  let tailStart = 0;
  while (cursor < limit) {
    const here = entries.filter((entry) => entry.start === cursor);
    const part = here.find((entry) => entry.kind === 'part');
    if (part) {
      items.push(part);
      cursor = part.end;
      tailStart = cursor;
      continue;
    }
    const segment = here.find((entry) => entry.kind === 'segment');
    const next = starts.find((start) => start > cursor) ?? Number.MAX_SAFE_INTEGER;
    const end = segment ? Math.min(segment.end, next) : cursor;
    if (!segment || end <= cursor) break;
    items.push({ ...segment, end });
    cursor = end;
  }
  return { items, end: cursor, tailStart };
}

/** What identifies the stored entries (another instance writing changes them). */
const signatureOf = (entries: Array<Entry | undefined>): string =>
  entries
    .flatMap((entry) => (entry ? [entry.key] : []))
    .sort()
    .join('\n');

/** MD5 state of the first `offset` bytes of an upload, as this instance received them. */
interface UploadHash {
  offset: number;
  hash: Md5;
  /** `signatureOf` the upload's entries right after those bytes were stored. */
  entries: string;
}

/** How many uploads an instance remembers (session markers, hash states); a forgotten one costs a read. */
export const MAX_TRACKED_UPLOADS = 1000;

/**
 * MD5 states of the uploads this instance receives, so finalize need not read the bytes back. A hash
 * counts only for exactly the bytes and entries it was kept for: a missing or stale state (chunks on
 * other instances, a restart) costs one read of the blob, never a wrong hash.
 */
export class UploadHashes {
  private readonly hashes = new RecentMap<UploadHash>(MAX_TRACKED_UPLOADS);

  /** Takes the upload's hash out; answers it if it is of the first `offset` bytes, stored as `entries`. */
  take(uploadId: string, offset: number, entries: Entry[]): Md5 | undefined {
    const tracked = this.hashes.take(uploadId);
    return tracked?.offset === offset && tracked.entries === signatureOf(entries) ? tracked.hash : undefined;
  }

  /** A copy of the upload's hash, kept in place, if it is of the first `offset` bytes, stored as `entries`. */
  copyAt(uploadId: string, offset: number, entries: Entry[]): Md5 | undefined {
    const tracked = this.hashes.get(uploadId);
    return tracked?.offset === offset && tracked.entries === signatureOf(entries)
      ? tracked.hash.copy()
      : undefined;
  }

  /** Keeps `hash` as the hash of the first `offset` bytes, stored as `entries` right after they were. */
  set(uploadId: string, offset: number, hash: Md5, entries: Array<Entry | undefined>): void {
    this.hashes.set(uploadId, { offset, hash, entries: signatureOf(entries) });
  }

  delete(uploadId: string): void {
    this.hashes.delete(uploadId);
  }
}

/**
 * The segment byte ranges that hold bytes `from`..`to` of an upload, in order, and how far they reach: up
 * to the first bytes that are missing or in a part.
 */
export function segmentRanges(
  items: Entry[],
  from: number,
  to: number,
): { pieces: { key: string; range: { start: number; end: number } }[]; readableTo: number } {
  const pieces: { key: string; range: { start: number; end: number } }[] = [];
  let cursor = from;
  for (const item of items) {
    if (cursor >= to) break;
    if (item.end <= cursor) continue;
    if (item.start > cursor || item.kind === 'part') break;
    const end = Math.min(item.end, to);
    pieces.push({ key: item.key, range: { start: cursor - item.start, end: end - item.start - 1 } });
    cursor = end;
  }
  return { pieces, readableTo: Math.min(cursor, to) };
}

export const unreadable = (from: number, to: number): Error =>
  new Error(`bytes ${from}..${to} of an upload are not readable`);

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMd5 } from '../stores/md5';
import {
  chainOf,
  entryOf,
  MIN_PART_BYTES,
  partMarkerName,
  partNumberAt,
  segmentName,
  segmentRanges,
  UploadHashes,
  type Entry,
} from './s3-upload-session';

const prefix = 'uploads/u1/';
const segment = (start: number, size: number): Entry => {
  const entry = entryOf(segmentName(start), prefix + segmentName(start), size);
  if (!entry) throw new Error('not a segment name');
  return entry;
};
const part = (start: number, end: number): Entry => {
  const entry = entryOf(partMarkerName(start, end), prefix + partMarkerName(start, end), 0);
  if (!entry) throw new Error('not a part marker name');
  return entry;
};

describe('the names of an upload’s objects', () => {
  it('read back as the segment or part they name; anything else is no entry', () => {
    expect(segment(42, 10)).toEqual({ kind: 'segment', key: `${prefix}000000000000042`, start: 42, end: 52 });
    expect(part(0, 7)).toEqual({
      kind: 'part',
      key: `${prefix}000000000000000-000000000000007.part`,
      start: 0,
      end: 7,
    });
    expect(entryOf('session', `${prefix}session`, 80)).toBeUndefined();
    expect(entryOf('42', `${prefix}42`, 1)).toBeUndefined();
  });

  it('give each part the number its offset implies, up to S3’s last part number', () => {
    expect(partNumberAt(0)).toBe(1);
    expect(partNumberAt(MIN_PART_BYTES - 1)).toBe(1);
    expect(partNumberAt(MIN_PART_BYTES)).toBe(2);
    expect(partNumberAt(9_999 * MIN_PART_BYTES)).toBe(10_000);
    expect(() => partNumberAt(10_000 * MIN_PART_BYTES)).toThrow(/larger than/);
  });
});

describe('chainOf', () => {
  it('follows the entries from 0, a part winning over the segments it took in', () => {
    const entries = [segment(0, 4), segment(4, 4), part(0, 8), segment(8, 3)];
    const chain = chainOf(entries, 100);
    expect(chain.items.map((item) => [item.kind, item.start, item.end])).toEqual([
      ['part', 0, 8],
      ['segment', 8, 11],
    ]);
    expect(chain.end).toBe(11);
    expect(chain.tailStart).toBe(8);
  });

  it('cuts a segment where a later write starts, and stops at a gap or at the limit', () => {
    expect(chainOf([segment(0, 10), segment(6, 2)], 100).items.map((item) => item.end)).toEqual([6, 8]);
    expect(chainOf([segment(0, 4), segment(6, 2)], 100).end).toBe(4);
    expect(chainOf([segment(0, 4), segment(4, 4)], 4).end).toBe(4);
    expect(chainOf([], 10)).toEqual({ items: [], end: 0, tailStart: 0 });
  });
});

describe('segmentRanges', () => {
  it('gives the byte ranges inside each segment, up to the first part or gap', () => {
    const items = chainOf([segment(0, 4), segment(4, 4), part(8, 20)], 100).items;
    expect(segmentRanges(items, 2, 6)).toEqual({
      pieces: [
        { key: `${prefix}000000000000000`, range: { start: 2, end: 3 } },
        { key: `${prefix}000000000000004`, range: { start: 0, end: 1 } },
      ],
      readableTo: 6,
    });
    expect(segmentRanges(items, 6, 12).readableTo).toBe(8);
  });
});

describe('UploadHashes', () => {
  it('answers a hash only for the bytes and entries it was kept for', async () => {
    const hashes = new UploadHashes();
    const entries = [segment(0, 4)];
    const hash = createMd5();
    hash.update([Buffer.from('abcd')]);
    hashes.set('u1', 4, hash, entries);
    expect(hashes.copyAt('u1', 3, entries)).toBeUndefined();
    expect(hashes.copyAt('u1', 4, [...entries, segment(4, 1)])).toBeUndefined();
    expect(await hashes.copyAt('u1', 4, entries)?.digestBase64()).toBe(
      createHash('md5').update('abcd').digest('base64'),
    );
    expect(hashes.take('u1', 4, entries)).toBe(hash);
    expect(hashes.take('u1', 4, entries)).toBeUndefined();
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMd5 } from './md5';

const expected = (...parts: Uint8Array[]): string => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest('base64');
};

/** 3 MiB in pieces of uneven sizes, as a network read delivers them. */
const bytes = randomBytes(3 * 1024 * 1024 + 17);
const pieces = (from: Uint8Array): Uint8Array[] => {
  const result: Uint8Array[] = [];
  for (let at = 0, size = 1; at < from.length; at += size, size = (size * 7 + 13) % 200_003) {
    result.push(from.subarray(at, at + size));
  }
  return result;
};

describe('MD5', () => {
  const make = createMd5;

  it('digests bytes fed in uneven pieces and batches like node’s crypto', async () => {
    const hash = make();
    const all = pieces(bytes);
    hash.update(all.slice(0, 5));
    hash.update([]);
    hash.update(all.slice(5));
    expect(await hash.digestBase64()).toBe(expected(bytes));
  });

  it('digests nothing as the MD5 of no bytes', async () => {
    expect(await make().digestBase64()).toBe('1B2M2Y8AsgTpgAmY7PhCfg==');
  });

  it('copies the bytes still queued, and the copy goes on on its own', async () => {
    const hash = make();
    const head = bytes.subarray(0, 1_000_000);
    const tail = bytes.subarray(1_000_000);
    hash.update([head]);
    const copy = hash.copy();
    hash.update([tail]);
    copy.update([Buffer.from('another ending')]);
    expect(await hash.settled()).toBe(true);
    expect(await copy.digestBase64()).toBe(expected(head, Buffer.from('another ending')));
    expect(await hash.digestBase64()).toBe(expected(bytes));
  });
});

import { createHash } from 'node:crypto';

/**
 * What a store learns from a blob's bytes as they pass on their way in: their MD5 (the protocol's
 * `md5Hash`), their size, and their first `headBytes` (for sniffing the type without reading them back).
 */
export class PassingBytes {
  private readonly hash = createHash('md5');
  private readonly heads: Buffer[] = [];
  private headLength = 0;
  /** Bytes seen so far. */
  size = 0;

  constructor(private readonly headBytes = 0) {}

  see(chunk: Uint8Array): void {
    if (this.headLength < this.headBytes) {
      const take = Buffer.from(chunk.subarray(0, this.headBytes - this.headLength));
      this.heads.push(take);
      this.headLength += take.length;
    }
    this.hash.update(chunk);
    this.size += chunk.byteLength;
  }

  /** Once every byte was seen. */
  result(key: string): { key: string; size: number; md5Base64: string; head: Buffer } {
    return { key, size: this.size, md5Base64: this.hash.digest('base64'), head: Buffer.concat(this.heads) };
  }
}

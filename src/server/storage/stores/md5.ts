import { createHash, type Hash } from 'node:crypto';

/**
 * The MD5 of an upload, fed while its bytes arrive and read at finalize (the protocol's `md5Hash`), so
 * finalize need not read the bytes again. Node's crypto hashes on the event loop: hashing on the thread
 * pool instead (a C addon, decision 038) moved neither the upload throughput nor the health check's p99,
 * so it was removed (docs/decisions/059-native-code-only-where-it-pays.md). The interface still lets a
 * hash settle later than its update, as the part writers expect.
 */
export interface Md5 {
  /** Hashes these pieces after everything hashed before. */
  update(pieces: Uint8Array[]): void;
  /**
   * Once every piece given so far is hashed: true, or false if hashing failed (the digest then rejects;
   * the caller hashes the stored bytes again instead). Never rejects.
   */
  settled(): Promise<boolean>;
  /** An independent hash of the same bytes. */
  copy(): Md5;
  /** The base64 digest of everything given; the hash is spent. */
  digestBase64(): Promise<string>;
}

/** An empty MD5. */
export const createMd5 = (): Md5 => new NodeMd5(createHash('md5'));

class NodeMd5 implements Md5 {
  constructor(private readonly hash: Hash) {}

  update(pieces: Uint8Array[]): void {
    for (const piece of pieces) this.hash.update(piece);
  }

  settled(): Promise<boolean> {
    return Promise.resolve(true);
  }

  copy(): Md5 {
    return new NodeMd5(this.hash.copy());
  }

  digestBase64(): Promise<string> {
    return Promise.resolve(this.hash.digest('base64'));
  }
}

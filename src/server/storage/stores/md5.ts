import { createHash, type Hash } from 'node:crypto';
import { loadNativeAddon, type NativeAddon, type NativeMd5State } from '../../core/native-addon';

/**
 * The MD5 of an upload, fed while its bytes arrive and read at finalize (the protocol's `md5Hash`). Node's
 * `Hash.update` runs on the event loop: ≈ 25 ms for every 16 MiB chunk, a third of a large upload's time,
 * and no other request is served meanwhile. With the native addon the bytes are hashed on libuv's thread
 * pool instead (native/md5.c, OpenSSL's MD5 as node uses it), beside the file writes
 * (docs/decisions/038-md5-off-the-event-loop.md).
 */
export interface Md5 {
  /**
   * Queues these pieces after everything queued before. They are read later, off the event loop: nothing
   * may change their bytes until `settled()` resolves.
   */
  update(pieces: Uint8Array[]): void;
  /**
   * Once every piece queued so far is hashed: true, or false if hashing failed (the digest then rejects;
   * the caller hashes the stored bytes again instead). Never rejects.
   */
  settled(): Promise<boolean>;
  /** An independent hash of the same bytes, those still queued included. */
  copy(): Md5;
  /** The base64 digest of everything queued; the hash is spent. */
  digestBase64(): Promise<string>;
}

/** An empty MD5: on the thread pool with the addon, on the event loop (node's crypto) without it. */
export function createMd5(): Md5 {
  const addon = loadNativeAddon();
  return addon
    ? new ThreadPoolMd5(addon, Promise.resolve(addon.md5Create()))
    : new EventLoopMd5(createHash('md5'));
}

class ThreadPoolMd5 implements Md5 {
  constructor(
    private readonly addon: NativeAddon,
    /** The state once everything queued so far is hashed. */
    private state: Promise<NativeMd5State>,
  ) {
    // A failure is reported to whoever waits next; until then it is not an unhandled rejection.
    state.catch(() => undefined);
  }

  update(pieces: Uint8Array[]): void {
    this.state = this.state.then(async (state) => {
      await this.addon.md5Update(state, pieces);
      return state;
    });
    this.state.catch(() => undefined);
  }

  settled(): Promise<boolean> {
    return this.state.then(
      () => true,
      () => false,
    );
  }

  copy(): Md5 {
    return new ThreadPoolMd5(
      this.addon,
      this.state.then((state) => this.addon.md5Copy(state)),
    );
  }

  async digestBase64(): Promise<string> {
    return this.addon.md5Digest(await this.state).toString('base64');
  }
}

class EventLoopMd5 implements Md5 {
  constructor(private readonly hash: Hash) {}

  update(pieces: Uint8Array[]): void {
    for (const piece of pieces) this.hash.update(piece);
  }

  settled(): Promise<boolean> {
    return Promise.resolve(true);
  }

  copy(): Md5 {
    return new EventLoopMd5(this.hash.copy());
  }

  digestBase64(): Promise<string> {
    return Promise.resolve(this.hash.digest('base64'));
  }
}

/** For tests: the fallback used where the addon is not built. */
export const eventLoopMd5ForTests = (): Md5 => new EventLoopMd5(createHash('md5'));

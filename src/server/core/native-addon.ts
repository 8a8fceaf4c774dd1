import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm ci` builds the addon (binding.gyp, native/*.c), under the repository root. */
const ADDON = path.join('build', 'Release', 'dojo_native.node');

/** An MD5 state inside the addon: opaque to JS. */
export type NativeMd5State = { readonly nativeMd5State: unique symbol };

/** What native/addon.c exports. */
export interface NativeAddon {
  /** glibc's `malloc_trim(0)`: answers whether memory went back (false where glibc is not the C library). */
  trimMalloc(): boolean;
  md5Create(): NativeMd5State;
  /** Hashes the pieces, in order, on libuv's thread pool; one update at a time per state. */
  md5Update(state: NativeMd5State, pieces: Uint8Array[]): Promise<void>;
  md5Copy(state: NativeMd5State): NativeMd5State;
  /** The 16-byte digest; the state is spent. */
  md5Digest(state: NativeMd5State): Buffer;
}

let loaded: NativeAddon | null | undefined;

/**
 * The server's native addon, loaded once; undefined when `npm ci` could not build it (no compiler), in
 * which case each caller falls back to what node itself offers.
 */
export function loadNativeAddon(): NativeAddon | undefined {
  if (loaded === undefined) {
    const file = findAddon(path.dirname(fileURLToPath(import.meta.url)));
    loaded = file ? (createRequire(import.meta.url)(file) as NativeAddon) : null;
  }
  return loaded ?? undefined;
}

/** The addon in the nearest directory above `from` that has it: the same from the sources and the bundle. */
function findAddon(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ADDON);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

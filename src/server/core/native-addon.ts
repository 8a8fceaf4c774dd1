import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm ci` builds the addon (binding.gyp, native/*.c), under the repository root. */
const ADDON = path.join('build', 'Release', 'dojo_native.node');

/**
 * What native/addon.c exports. Each function is there because a budget line of docs/benchmarks.md needs
 * it (docs/decisions/059-native-code-only-where-it-pays.md); one that no line needs is removed.
 */
interface NativeAddon {
  /**
   * glibc's `malloc_trim(0)`: answers whether memory went back (false where glibc is not the C library).
   * Holds the budget line "Server RSS after 1,000 signups and 10,000 projects served once" (native/memory.c,
   * core/malloc-trim.ts).
   */
  trimMalloc(): boolean;
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

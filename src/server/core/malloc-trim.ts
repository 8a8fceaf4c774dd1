import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm ci` builds the addon (binding.gyp, native/memory.c), under the repository root. */
const ADDON = path.join('build', 'Release', 'dojo_memory.node');

/**
 * A function that gives the C allocator's free memory back to the system and answers whether anything went
 * back. glibc keeps freed chunks in the middle of its heap resident for good (freed list bodies, SQLite's
 * page cache after `shrink_memory`: ≈ 20 MiB after a served workload), and node cannot ask it to let go, so
 * a small addon does (docs/decisions/036-malloc-trim.md). Undefined without the addon: not built, or a
 * platform without glibc, where there is nothing to give back this way.
 */
export function loadMallocTrim(): (() => boolean) | undefined {
  const addon = findAddon(path.dirname(fileURLToPath(import.meta.url)));
  if (!addon) return undefined;
  const { trimMalloc } = createRequire(import.meta.url)(addon) as { trimMalloc: () => boolean };
  return trimMalloc;
}

/** The addon in the nearest directory above `from` that has it: the same from the sources and the bundle. */
function findAddon(from: string): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, ADDON);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

import { loadNativeAddon } from './native-addon';

/**
 * A function that gives the C allocator's free memory back to the system and answers whether anything went
 * back. glibc keeps freed chunks in the middle of its heap resident for good (freed list bodies, SQLite's
 * page cache after `shrink_memory`), and node cannot ask it to let go, so
 * a small addon does (docs/decisions/036-malloc-trim.md). It holds the budget line "Server RSS after 1,000
 * signups and 10,000 projects served once" of docs/benchmarks.md. Undefined without the addon (not built):
 * then nothing is given back this way.
 */
export function loadMallocTrim(): (() => boolean) | undefined {
  const addon = loadNativeAddon();
  return addon ? () => addon.trimMalloc() : undefined;
}

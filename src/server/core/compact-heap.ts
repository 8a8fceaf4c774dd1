import v8 from 'node:v8';

/**
 * A full garbage collection that moves every surviving object together and gives the emptied pages back.
 * V8's own full GCs move objects only off pages that are mostly empty: after a burst (10,000 sockets
 * opened at once, a list of 10,000 projects served) the old space stays committed at its peak with pages
 * three quarters full. Compacting on every full GC (`--compact-on-every-full-gc`) gave that back but made
 * the full GCs that come during a fan-out pause long enough to show on its p99
 * (docs/decisions/035-heap-after-bursts.md), so it is turned on for this one collection only. It holds the
 * budget line "Server RSS after 1,000 signups and 10,000 projects served once" of docs/benchmarks.md, with
 * the C allocator's trim that follows it (malloc-trim.ts).
 *
 * Needs `gc`, which node exposes with `--expose-gc` (`npm start` passes it); without it, nothing happens
 * and false is returned.
 */
export function compactHeap(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  v8.setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    v8.setFlagsFromString('--no-compact-on-every-full-gc');
  }
  return true;
}

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compactHeap } from './compact-heap';

const MODULE = fileURLToPath(new URL('./compact-heap.ts', import.meta.url));

/** Runs `body` in a node with `--expose-gc`, as `npm start` runs the server; returns what it prints. */
function inNodeWithGc(body: string): unknown {
  const script = `import { compactHeap } from ${JSON.stringify(MODULE)};\nimport v8 from 'node:v8';\n${body}`;
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  );
  return JSON.parse(output) as unknown;
}

describe('compactHeap', () => {
  it("gives back the old space's pages a burst left three quarters full, which a plain full GC keeps", () => {
    const sizes = inNodeWithGc(`
      // A burst: many small objects, one in four of them garbage afterwards, spread over every page: each page
      // stays three quarters full, which V8's own full GCs leave as they are.
      let kept = Array.from({ length: 400_000 }, (_, i) => ({ i, text: 'item ' + i }));
      kept = kept.filter((_, i) => i % 4 !== 0);
      const heap = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size;
      globalThis.gc();
      const afterPlainGc = heap();
      const compacted = compactHeap();
      const afterCompaction = heap();
      globalThis.gc();
      console.log(JSON.stringify({ afterPlainGc, compacted, afterCompaction, afterNextGc: heap(), kept: kept.length }));
    `) as {
      afterPlainGc: number;
      compacted: boolean;
      afterCompaction: number;
      afterNextGc: number;
      kept: number;
    };
    expect(sizes.compacted).toBe(true);
    expect(sizes.kept).toBe(300_000);
    // A quarter of every page was garbage: packed, at least a tenth of the old space comes back (a quarter
    // of the burst's pages, less the rest of the old space, which was not fragmented).
    expect(sizes.afterCompaction).toBeLessThan(sizes.afterPlainGc * 0.9);
    expect(sizes.afterNextGc).toBeLessThanOrEqual(sizes.afterCompaction);
  });

  it('does nothing without --expose-gc (the unit tests run so)', () => {
    expect(compactHeap()).toBe(false);
  });
});

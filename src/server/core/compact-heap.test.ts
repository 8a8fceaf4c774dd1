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
  it("packs the old space's pages a burst left three quarters full, which a plain full GC mostly keeps", () => {
    const sizes = inNodeWithGc(`
      // A burst: many small objects, one in four of them garbage afterwards, spread over every page: each page
      // stays three quarters full, which V8's own full GCs mostly leave as they are.
      let kept = Array.from({ length: 400_000 }, (_, i) => ({ i, text: 'item ' + i }));
      kept = kept.filter((_, i) => i % 4 !== 0);
      const old = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
      const sizeAndFill = () => ({ size: old().space_size, fill: old().space_used_size / old().space_size });
      globalThis.gc();
      const afterPlainGc = sizeAndFill();
      const compacted = compactHeap();
      const afterCompaction = sizeAndFill();
      globalThis.gc();
      console.log(JSON.stringify({ afterPlainGc, compacted, afterCompaction, afterNextGc: sizeAndFill(), kept: kept.length }));
    `) as {
      afterPlainGc: { size: number; fill: number };
      compacted: boolean;
      afterCompaction: { size: number; fill: number };
      afterNextGc: { size: number; fill: number };
      kept: number;
    };
    expect(sizes.compacted).toBe(true);
    expect(sizes.kept).toBe(300_000);
    // Packed: the pages left are nearly full (0.96–0.97 measured), where a plain full GC leaves them ≈ 0.8
    // full. V8 sometimes moves some pages on its own in that plain GC (0.89 once, under load), so the test
    // compares fill rather than a fixed share of the size; either way the compaction packs what is left.
    expect(sizes.afterCompaction.fill).toBeGreaterThan(0.93);
    expect(sizes.afterCompaction.fill).toBeGreaterThan(sizes.afterPlainGc.fill);
    expect(sizes.afterCompaction.size).toBeLessThan(sizes.afterPlainGc.size);
    expect(sizes.afterNextGc.size).toBeLessThanOrEqual(sizes.afterCompaction.size);
  });

  it('does nothing without --expose-gc (the unit tests run so)', () => {
    expect(compactHeap()).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ReadAhead } from './byte-streams';

/** A source of `count` pieces of `size` bytes that records how many were pulled and whether it was ended. */
function countingSource(count: number, size: number, failAfter?: number) {
  const state = { pulled: 0, ended: false };
  async function* generate(): AsyncGenerator<Uint8Array> {
    try {
      for (let index = 0; index < count; index += 1) {
        if (index === failAfter) throw new Error('connection dropped');
        state.pulled += 1;
        yield new Uint8Array(size).fill(index);
      }
    } finally {
      state.ended = true;
    }
  }
  return { source: generate(), state };
}

const settle = async (): Promise<void> => {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
};

async function collect(source: AsyncIterable<Uint8Array>): Promise<number[]> {
  const firstBytes: number[] = [];
  for await (const piece of source) firstBytes.push(piece[0] ?? -1);
  return firstBytes;
}

describe('ReadAhead', () => {
  it('reads up to its limit before anyone iterates, and no further', async () => {
    const { source, state } = countingSource(10, 100);
    const ahead = new ReadAhead(source, 300);
    await settle();
    expect(state.pulled).toBe(3);
    expect(await collect(ahead)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(state.ended).toBe(true);
  });

  it('hands on the bytes read before an error, then the error', async () => {
    const { source } = countingSource(10, 100, 4);
    const ahead = new ReadAhead(source, 1000);
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const piece of ahead) seen.push(piece[0] ?? -1);
      })(),
    ).rejects.toThrow('connection dropped');
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('ends the source when the consumer leaves early, as a for await over the source would', async () => {
    const { source, state } = countingSource(10, 100);
    const ahead = new ReadAhead(source, 200);
    for await (const piece of ahead) {
      if (piece[0] === 1) break;
    }
    expect(state.ended).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });

  it('stops reading for a consumer that will never iterate', async () => {
    const { source, state } = countingSource(10, 100);
    const ahead = new ReadAhead(source, 200);
    await ahead.stop();
    await settle();
    expect(state.pulled).toBeLessThanOrEqual(2);
  });
});

import { describe, expect, it } from 'vitest';
import { SocketCounts } from './socket-counts';

describe('SocketCounts', () => {
  it('counts up and down per key, starting at 0', () => {
    const counts = new SocketCounts();
    expect(counts.get('s1')).toBe(0);
    counts.add('s1', 1);
    counts.add('s1', 1);
    counts.add('s2', 1);
    expect([counts.get('s1'), counts.get('s2')]).toEqual([2, 1]);
    counts.add('s1', -1);
    expect(counts.get('s1')).toBe(1);
  });

  it('forgets a key that reaches 0 and never goes below it', () => {
    const counts = new SocketCounts();
    counts.add('s1', 1);
    counts.add('s1', -1);
    expect(counts.get('s1')).toBe(0);
    counts.add('s1', -1);
    expect(counts.get('s1')).toBe(0);
    counts.add('s1', 1);
    expect(counts.get('s1')).toBe(1);
  });
});

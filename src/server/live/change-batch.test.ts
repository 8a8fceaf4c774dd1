import { describe, expect, it } from 'vitest';
import { ChangeBatch } from './change-batch';

describe('ChangeBatch', () => {
  it('claims one flush per burst and hands the burst over whole', async () => {
    const batch = new ChangeBatch();
    expect(batch.claimFlush()).toBe(false);
    const marks: string[] = [];
    batch.arriving(() => {
      marks.push('first');
      return async () => undefined;
    });
    batch.add({ collection: 'projects', id: 'p1' });
    expect(batch.claimFlush()).toBe(true);
    const latest = async () => undefined;
    batch.arriving(() => latest);
    batch.add({ collection: 'projects', id: 'p2' });
    expect(batch.claimFlush()).toBe(false);

    const burst = batch.take();
    expect(burst.changes.map((change) => change.id)).toEqual(['p1', 'p2']);
    expect(burst.resync).toBe(false);
    expect(burst.receivedAt).toBeTypeOf('number');
    expect(burst.durable).toBe(latest);
    expect(marks).toEqual(['first']);

    expect(batch.take()).toEqual({ changes: [], resync: false, receivedAt: undefined, durable: undefined });
    batch.arriving(undefined);
    batch.resyncAll();
    expect(batch.claimFlush()).toBe(true);
    expect(batch.take().resync).toBe(true);
  });
});

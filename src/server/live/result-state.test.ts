import { describe, expect, it } from 'vitest';
import type { LiveDoc } from '../../common';
import { changesMessage, diffOf, resultStateOf, snapshotMessage } from './result-state';

const doc = (id: string, title = id): LiveDoc => ({ id, title }) as LiveDoc;
const stateOf = (docs: LiveDoc[]) =>
  resultStateOf(
    docs,
    docs.map((d) => JSON.stringify(d)),
  );
const diff = (before: LiveDoc[], after: LiveDoc[]) =>
  diffOf(
    stateOf(before),
    after,
    after.map((d) => JSON.stringify(d)),
  );

describe('diffOf', () => {
  it('is empty when nothing changed', () => {
    expect(diff([doc('a'), doc('b')], [doc('a'), doc('b')])).toEqual([]);
  });

  it('lists removals first, then additions and modifications with their new index', () => {
    const changes = diff([doc('a'), doc('b'), doc('c')], [doc('c'), doc('a', 'renamed'), doc('d')]);
    expect(changes).toEqual([
      { type: 'removed', doc: { id: 'b' } },
      { type: 'modified', doc: doc('a', 'renamed'), newIndex: 1 },
      { type: 'added', doc: doc('d'), newIndex: 2 },
    ]);
  });

  it('does not report a doc that only moved', () => {
    expect(diff([doc('a'), doc('b')], [doc('b'), doc('a')])).toEqual([]);
  });
});

describe('messages', () => {
  it('builds a snapshot from the state, once', () => {
    const state = stateOf([doc('a'), doc('b')]);
    const message = snapshotMessage('s1', state);
    expect(JSON.parse(message)).toEqual({ type: 'snapshot', id: 's1', docs: [doc('a'), doc('b')] });
    expect(state.docsJson).toBe(JSON.stringify([doc('a'), doc('b')]));
    expect(snapshotMessage('s2', state)).toContain('"id":"s2"');
  });

  it('wraps serialized changes as a changes message', () => {
    const changes = [{ type: 'removed', doc: { id: 'a' } }];
    expect(JSON.parse(changesMessage('s1', JSON.stringify(changes)))).toEqual({
      type: 'changes',
      id: 's1',
      changes,
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { LiveTarget } from '../../common';
import { GroupIndex } from './group-index';
import { resultStateOf, type ResultState } from './result-state';

interface TestGroup {
  name: string;
  target: LiveTarget;
  state: ResultState;
}

const stateWith = (...ids: string[]): ResultState =>
  resultStateOf(
    ids.map((id) => ({ id })),
    ids.map((id) => JSON.stringify({ id })),
  );

function group(name: string, target: LiveTarget, ...ids: string[]): TestGroup {
  return { name, target, state: stateWith(...ids) };
}

/** A query of `collection` for the docs whose `field` equals `value`. */
const whereEquals = (collection: LiveTarget['collection'], field: string, value: string): LiveTarget => ({
  kind: 'query',
  collection,
  where: [{ field, op: '==', value }],
});

const names = (found: Set<TestGroup> | 'all') =>
  found === 'all' ? 'all' : [...found].map((g) => g.name).sort();

describe('GroupIndex', () => {
  const adaBell = group('adaBell', {
    kind: 'query',
    collection: 'notifications',
    where: [
      { field: 'userId', op: '==', value: 'ada' },
      { field: 'unread', op: '==', value: true },
    ],
  });
  const bobBell = group('bobBell', whereEquals('notifications', 'userId', 'bob'), 'n1');
  const dashboard = group('dashboard', { kind: 'query', collection: 'projects' }, 'p1');
  const sales = group('sales', whereEquals('projects', 'category', 'sales'), 'p2');
  const oneProject = group('oneProject', { kind: 'doc', collection: 'projects', id: 'p9' });

  const index = new GroupIndex<TestGroup>();
  for (const g of [adaBell, bobBell, dashboard, sales, oneProject]) index.add(g);

  it('finds only the groups whose equality clause the change matches', () => {
    expect(
      names(index.candidates({ collection: 'notifications', id: 'ada', after: { userId: 'ada' } })),
    ).toEqual(['adaBell']);
    expect(
      names(index.candidates({ collection: 'projects', id: 'p5', after: { category: 'design' } })),
    ).toEqual(['dashboard']);
    expect(
      names(index.candidates({ collection: 'projects', id: 'p5', after: { category: 'sales' } })),
    ).toEqual(['dashboard', 'sales']);
  });

  it('keeps the groups that hold or watch the changed doc, whatever its new fields', () => {
    expect(
      names(index.candidates({ collection: 'projects', id: 'p2', after: { category: 'design' } })),
    ).toEqual(['dashboard', 'sales']);
    expect(names(index.candidates({ collection: 'projects', id: 'p9', after: null }))).toEqual([
      'oneProject',
    ]);
    expect(names(index.candidates({ collection: 'notifications', id: 'n1', after: null }))).toEqual([
      'bobBell',
    ]);
  });

  it('falls back to every group of the collection without fields, and to all groups for profile changes', () => {
    expect(names(index.candidates({ collection: 'projects', id: 'p5' }))).toEqual([
      'dashboard',
      'oneProject',
      'sales',
    ]);
    expect(names(index.candidates({ collection: 'projects', id: 'p5', after: { name: 'x' } }))).toEqual([
      'dashboard',
      'sales',
    ]);
    expect(index.candidates({ collection: 'users', id: 'ada' })).toBe('all');
  });

  it('follows results as they change and forgets removed groups', () => {
    const previous = sales.state;
    sales.state = stateWith('p7');
    index.resultChanged(sales, previous, sales.state);
    expect(names(index.candidates({ collection: 'projects', id: 'p7', after: null }))).toEqual(['sales']);
    expect(names(index.candidates({ collection: 'projects', id: 'p2', after: null }))).toEqual([]);
    index.remove(sales);
    expect(
      names(index.candidates({ collection: 'projects', id: 'p7', after: { category: 'sales' } })),
    ).toEqual(['dashboard']);
  });
});

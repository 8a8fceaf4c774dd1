import { describe, expect, it } from 'vitest';
import type { LiveDoc, LiveTarget } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Change } from '../db/change-bus';
import { groupsReachedBy, type RoutedGroup } from './change-routing';
import { GroupIndex } from './group-index';
import { resultStateOf } from './result-state';
import { SlicedQueue } from './sliced-queue';

interface TestGroup extends RoutedGroup {
  name: string;
}

const viewer = { uid: 'ada', sessionHash: 's' } as Viewer;

function group(name: string, target: LiveTarget, ...docs: LiveDoc[]): TestGroup {
  const state = resultStateOf(
    docs,
    docs.map((doc) => JSON.stringify(doc)),
  );
  return { name, target, viewer, readScope: '', state };
}

/** Routes `changes` over the groups; `stored` answers the read-backs, which are counted. */
async function reached(groups: TestGroup[], changes: Change[], stored: Record<string, LiveDoc> = {}) {
  const index = new GroupIndex<TestGroup>();
  for (const g of groups) index.add(g);
  const reads: string[] = [];
  const found = await groupsReachedBy(
    { changes, resync: false },
    {
      groups: new Map(groups.map((g) => [g.name, g])),
      index,
      readDoc: async (_collection, id) => {
        reads.push(id);
        return stored[id] ?? null;
      },
      queue: new SlicedQueue(() => undefined),
    },
  );
  return { names: [...found].map((g) => g.name).sort(), reads };
}

const sales = (...docs: LiveDoc[]) =>
  group(
    'sales',
    { kind: 'query', collection: 'projects', where: [{ field: 'category', op: '==', value: 'sales' }] },
    ...docs,
  );

describe('groupsReachedBy', () => {
  it('reaches a group whose last result holds the changed doc, or a doc group of that id', async () => {
    const groups = [
      sales({ id: 'p1', category: 'sales' }),
      group('p2', { kind: 'doc', collection: 'projects', id: 'p2' }),
    ];
    expect((await reached(groups, [{ collection: 'projects', id: 'p1', after: null }])).names).toEqual([
      'sales',
    ]);
    expect((await reached(groups, [{ collection: 'projects', id: 'p2' }])).names).toEqual(['p2']);
  });

  it('decides from the fields a change carries, and reads the doc back only without them', async () => {
    const groups = [sales()];
    const carried = await reached(groups, [
      { collection: 'projects', id: 'p3', after: { category: 'sales' } },
      { collection: 'projects', id: 'p4', after: { category: 'other' } },
    ]);
    expect(carried).toEqual({ names: ['sales'], reads: [] });
    const readBack = await reached(groups, [{ collection: 'projects', id: 'p5' }], {
      p5: { id: 'p5', category: 'sales' },
    });
    expect(readBack).toEqual({ names: ['sales'], reads: ['p5'] });
  });

  it('reaches every group on a resync, and no group for a session change', async () => {
    const groups = [sales(), group('users', { kind: 'query', collection: 'users' })];
    const index = new GroupIndex<TestGroup>();
    for (const g of groups) index.add(g);
    const deps = {
      groups: new Map(groups.map((g) => [g.name, g])),
      index,
      readDoc: async () => null,
      queue: new SlicedQueue(() => undefined),
    };
    expect((await groupsReachedBy({ changes: [], resync: true }, deps)).size).toBe(2);
    const signedOut = await groupsReachedBy(
      { changes: [{ collection: 'sessions', id: 'h' }], resync: false },
      deps,
    );
    expect(signedOut.size).toBe(0);
  });

  it('reaches the project results that name a user whose profile changed, not on a presence change', async () => {
    const named = sales({ id: 'p1', category: 'sales', createdBy: { uid: 'bob' } });
    expect((await reached([named], [{ collection: 'users', id: 'bob' }])).names).toEqual(['sales']);
    expect((await reached([named], [{ collection: 'users', id: 'bob', scope: 'presence' }])).names).toEqual(
      [],
    );
    expect((await reached([named], [{ collection: 'users', id: 'carol' }])).names).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { addChange, describeBatch, emptyBatch, withdrawChanges, type LiveChange } from './announcement-batch';

function describeChanges(...changes: LiveChange[]): string {
  const batch = emptyBatch();
  for (const change of changes) addChange(batch, change);
  return describeBatch(batch);
}

const presence = (userId: string, online: boolean) =>
  ({ kind: 'presence', userId, name: userId, online }) as const;

describe('describeBatch', () => {
  it('says nothing for an empty batch', () => {
    expect(describeChanges()).toBe('');
  });

  it('counts projects and comments together, in one sentence per kind', () => {
    expect(
      describeChanges(
        { kind: 'projectsAdded', count: 1 },
        { kind: 'projectsAdded', count: 2 },
        { kind: 'projectsRemoved', count: 1 },
        { kind: 'commentsAdded', count: 1 },
      ),
    ).toBe('3 new projects. 1 project removed. 1 new comment.');
  });

  it('names up to three teammates, and counts more', () => {
    expect(describeChanges(presence('Ana', true))).toBe('Ana is online.');
    expect(describeChanges(presence('Ana', true), presence('Bo', true), presence('Cy', false))).toBe(
      'Ana and Bo are online. Cy is offline.',
    );
    expect(describeChanges(...['A', 'B', 'C'].map((name) => presence(name, false)))).toBe(
      'A, B and C are offline.',
    );
    expect(describeChanges(...['A', 'B', 'C', 'D'].map((name) => presence(name, true)))).toBe(
      '4 teammates came online.',
    );
  });

  it('says nothing of a teammate who came and went within the batch; the latest state wins', () => {
    expect(describeChanges(presence('Ana', true), presence('Ana', false))).toBe('');
    expect(describeChanges(presence('Ana', false), presence('Ana', true), presence('Ana', false))).toBe(
      'Ana is offline.',
    );
  });

  it('tells nothing of withdrawn kinds, and the rest as before', () => {
    const batch = emptyBatch();
    addChange(batch, { kind: 'projectsAdded', count: 1 });
    addChange(batch, { kind: 'commentsAdded', count: 2 });
    addChange(batch, presence('Ana', true));
    withdrawChanges(batch, ['projectsAdded', 'projectsRemoved']);
    expect(describeBatch(batch)).toBe('2 new comments. Ana is online.');
    // Reported after the withdrawal: told.
    addChange(batch, { kind: 'projectsAdded', count: 1 });
    expect(describeBatch(batch)).toBe('1 new project. 2 new comments. Ana is online.');
  });
});

import { describe, expect, it } from 'vitest';
import { matchesWhere } from './matches-where';

const project = { id: 'p1', category: 'design', assignedUserIds: ['u1', 'u2'], displayName: 'José Núñez' };

describe('matchesWhere', () => {
  it('matches everything without filters', () => {
    expect(matchesWhere(project, undefined)).toBe(true);
    expect(matchesWhere(project, [])).toBe(true);
  });

  it('compares == exactly', () => {
    expect(matchesWhere(project, [{ field: 'category', op: '==', value: 'design' }])).toBe(true);
    expect(matchesWhere(project, [{ field: 'category', op: '==', value: 'Design' }])).toBe(false);
  });

  it('finds a value in an array with array-contains, and nothing in a non-array', () => {
    expect(matchesWhere(project, [{ field: 'assignedUserIds', op: 'array-contains', value: 'u2' }])).toBe(
      true,
    );
    expect(matchesWhere(project, [{ field: 'assignedUserIds', op: 'array-contains', value: 'u3' }])).toBe(
      false,
    );
    expect(matchesWhere(project, [{ field: 'category', op: 'array-contains', value: 'design' }])).toBe(false);
  });

  it('matches contains-text ignoring case and accents', () => {
    expect(matchesWhere(project, [{ field: 'displayName', op: 'contains-text', value: 'nunez' }])).toBe(true);
    expect(matchesWhere(project, [{ field: 'displayName', op: 'contains-text', value: 'JOSE N' }])).toBe(
      true,
    );
    expect(matchesWhere(project, [{ field: 'displayName', op: 'contains-text', value: 'maria' }])).toBe(
      false,
    );
  });

  it('needs every clause', () => {
    const where = [
      { field: 'category', op: '==' as const, value: 'design' },
      { field: 'assignedUserIds', op: 'array-contains' as const, value: 'u9' },
    ];
    expect(matchesWhere(project, where)).toBe(false);
  });
});

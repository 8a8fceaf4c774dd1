import { describe, expect, it } from 'vitest';
import { pageFromExtraRow } from './pages';

describe('pageFromExtraRow', () => {
  const cursorOf = (last: number) => `after-${last}`;

  it('gives the page and a cursor from its last item when the extra row came back', () => {
    expect(pageFromExtraRow([1, 2, 3, 4], 3, cursorOf)).toEqual({ items: [1, 2, 3], next: 'after-3' });
  });

  it('gives no cursor on the last page, full or not', () => {
    expect(pageFromExtraRow([1, 2, 3], 3, cursorOf)).toEqual({ items: [1, 2, 3], next: null });
    expect(pageFromExtraRow([1], 3, cursorOf)).toEqual({ items: [1], next: null });
    expect(pageFromExtraRow([], 3, cursorOf)).toEqual({ items: [], next: null });
  });
});

import { describe, expect, it } from 'vitest';
import { COMMENTS_PAGE_SIZE, type Comment } from '../../../common';
import { merged, noLive, withLivePage } from './use-project-comments';

/** Comment `n` was written at minute `n`: a higher number is newer. */
function comment(n: number): Comment {
  return {
    id: `c${n}`,
    projectId: 'p1',
    authorId: 'uid-ann',
    displayName: 'Ann',
    photoURL: '',
    content: `comment ${n}`,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
    editedAt: null,
  };
}

/** The newest page when the newest comment is `newest`: a full page, newest first. */
const pageEndingAt = (newest: number, skip: readonly number[] = []) =>
  Array.from({ length: COMMENTS_PAGE_SIZE + skip.length }, (_, index) => newest - index)
    .filter((n) => !skip.includes(n))
    .map(comment);

const ids = (comments: readonly Comment[]) => comments.map((each) => each.id);

describe('the live newest page of a project’s comments', () => {
  it('is the whole thread while it has room to spare', () => {
    const live = withLivePage(noLive('p1'), [comment(2), comment(1)]);
    expect(live).toEqual({ projectId: 'p1', page: [comment(2), comment(1)], kept: [], ready: true });
  });

  it('keeps the comments newer ones pushed out of a full page, newest first', () => {
    const first = withLivePage(noLive('p1'), pageEndingAt(100));
    const second = withLivePage(first, pageEndingAt(102));
    expect(ids(second.kept)).toEqual(['c82', 'c81']);
    const third = withLivePage(second, pageEndingAt(103));
    expect(ids(third.kept)).toEqual(['c83', 'c82', 'c81']);
  });

  it('drops a comment that left a full page because it was deleted', () => {
    const first = withLivePage(noLive('p1'), pageEndingAt(100));
    // c90 was deleted: the page moves down by one, bringing c80 in from below.
    const afterDelete = withLivePage(first, pageEndingAt(100, [90]));
    expect(afterDelete.kept).toEqual([]);
    expect(ids(afterDelete.page)).not.toContain('c90');
  });

  it('drops the oldest comment of a full page when it was deleted, though every other one stayed above it', () => {
    const first = withLivePage(noLive('p1'), pageEndingAt(100));
    // c81 was deleted: the older c80 comes in from below, which no newer comment would.
    const afterDelete = withLivePage(first, pageEndingAt(100, [81]));
    expect(ids(afterDelete.page).at(-1)).toBe('c80');
    expect(afterDelete.kept).toEqual([]);
  });

  it('does not keep a pushed-out comment once a page shows it again', () => {
    const first = withLivePage(noLive('p1'), pageEndingAt(100));
    const pushed = withLivePage(first, pageEndingAt(101));
    expect(ids(pushed.kept)).toEqual(['c81']);
    // The newest comment is deleted: c81 comes back onto the page.
    expect(withLivePage(pushed, pageEndingAt(100)).kept).toEqual([]);
  });
});

describe('the comments shown from several pages', () => {
  it('are newest first, each once, though an older page overlaps the next', () => {
    expect(ids(merged([[comment(5), comment(4)], [comment(4), comment(3)], [], [comment(2)]]))).toEqual([
      'c5',
      'c4',
      'c3',
      'c2',
    ]);
  });
});

// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { messages } from '../../common';
import { DojoError } from '../../sdk';
import { appendNew, useCursorPages, type CursorPage } from './use-cursor-pages';

interface Item {
  id: string;
  label: string;
}

const item = (id: string, label = id): Item => ({ id, label });

describe('a page added by "Show more"', () => {
  it('comes after the items shown, in its own order', () => {
    expect(appendNew([item('a'), item('b')], [item('c'), item('d')])).toEqual([
      item('a'),
      item('b'),
      item('c'),
      item('d'),
    ]);
  });

  it('never shows an item twice: one shown already (the list moved between two pages) stays where it was', () => {
    const shown = [item('a'), item('b', 'as first read')];
    expect(appendNew(shown, [item('b', 'read again'), item('c')])).toEqual([
      item('a'),
      item('b', 'as first read'),
      item('c'),
    ]);
  });

  it('adds nothing from an empty page', () => {
    expect(appendNew([item('a')], [])).toEqual([item('a')]);
  });
});

/** A page request the test answers when it chooses. */
interface Request {
  query: string;
  after: string | null;
  answer: (page: CursorPage<Item>) => Promise<void>;
  fail: (error: unknown) => Promise<void>;
}

/** A `fetchPage` whose requests wait for the test to answer them, in any order. */
function pagedServer() {
  const requests: Request[] = [];
  const fetchPage = (query: string, after: string | null) =>
    new Promise<CursorPage<Item>>((resolve, reject) => {
      requests.push({
        query,
        after,
        // Answering settles the hook's promise chain inside act, so its state updates are applied.
        answer: (page) => act(async () => resolve(page)),
        fail: (error) => act(async () => reject(error)),
      });
    });
  return { requests, fetchPage };
}

/** A list element holding one focusable button per id, as the screen would render them. */
function listOf(ids: readonly string[]) {
  const list = document.createElement('ul');
  list.innerHTML = ids.map((id) => `<li><button data-id="${id}">${id}</button></li>`).join('');
  document.body.append(list);
  return { current: list };
}

function renderPages(fetchPage: ReturnType<typeof pagedServer>['fetchPage'], listRef = listOf([])) {
  return renderHook(
    ({ query }) => useCursorPages<Item>({ query, fetchPage, listRef, itemSelector: 'button' }),
    { initialProps: { query: '' } },
  );
}

describe('useCursorPages', () => {
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
  });

  it('shows the first page, then appends the next one "Show more" asks for', async () => {
    const server = pagedServer();
    const { result } = renderPages(server.fetchPage);
    expect(result.current).toMatchObject({ items: null, isPending: true, hasMore: false });
    await server.requests[0]?.answer({ items: [item('a'), item('b')], nextCursor: 'b' });
    expect(result.current).toMatchObject({ items: [item('a'), item('b')], isPending: false, hasMore: true });

    act(() => result.current.showMore());
    expect(result.current.loadingMore).toBe(true);
    expect(server.requests[1]).toMatchObject({ query: '', after: 'b' });
    await server.requests[1]?.answer({ items: [item('b'), item('c')], nextCursor: null });
    expect(result.current).toMatchObject({
      items: [item('a'), item('b'), item('c')],
      hasMore: false,
      loadingMore: false,
    });
  });

  it('never lets an older query’s answer replace a newer one’s, and keeps the last items meanwhile', async () => {
    const server = pagedServer();
    const { result, rerender } = renderPages(server.fetchPage);
    await server.requests[0]?.answer({ items: [item('a')], nextCursor: null });
    rerender({ query: 'b' });
    rerender({ query: 'bo' });
    // No flash of an empty list while the new query's page is on its way.
    expect(result.current).toMatchObject({ items: [item('a')], isPending: true });
    expect(server.requests.map((request) => request.query)).toEqual(['', 'b', 'bo']);

    await server.requests[2]?.answer({ items: [item('bob')], nextCursor: null });
    await server.requests[1]?.answer({ items: [item('ben'), item('bob')], nextCursor: 'bob' });
    expect(result.current).toMatchObject({ items: [item('bob')], isPending: false, hasMore: false });
  });

  it('ignores a "Show more" answer that arrives after the query changed', async () => {
    const server = pagedServer();
    const { result, rerender } = renderPages(server.fetchPage);
    await server.requests[0]?.answer({ items: [item('a')], nextCursor: 'a' });
    act(() => result.current.showMore());
    rerender({ query: 'z' });
    await server.requests[2]?.answer({ items: [item('zed')], nextCursor: null });
    await server.requests[1]?.answer({ items: [item('b')], nextCursor: null });
    expect(result.current.items).toEqual([item('zed')]);
  });

  it('shows a failed page’s message and keeps the items already shown', async () => {
    const server = pagedServer();
    const { result } = renderPages(server.fetchPage);
    await server.requests[0]?.answer({ items: [item('a')], nextCursor: 'a' });
    act(() => result.current.showMore());
    await server.requests[1]?.fail(new DojoError('unavailable', 'Try again later.', 503));
    expect(result.current).toMatchObject({ items: [item('a')], error: 'Try again later.', hasMore: true });

    const failing = pagedServer();
    const first = renderPages(failing.fetchPage);
    await failing.requests[0]?.fail(new Error('socket hang up'));
    expect(first.result.current).toMatchObject({ items: null, error: messages.internal, isPending: false });
  });

  it('moves focus to the first item "Show more" added', async () => {
    const server = pagedServer();
    const listRef = listOf(['a', 'b', 'c']);
    const { result } = renderPages(server.fetchPage, listRef);
    await server.requests[0]?.answer({ items: [item('a'), item('b')], nextCursor: 'b' });
    act(() => result.current.showMore());
    await server.requests[1]?.answer({ items: [item('c')], nextCursor: null });
    expect(document.activeElement?.getAttribute('data-id')).toBe('c');
  });

  it('changes the items shown after an action, without asking the server', async () => {
    const server = pagedServer();
    const { result } = renderPages(server.fetchPage);
    await server.requests[0]?.answer({ items: [item('a'), item('b')], nextCursor: null });
    act(() => result.current.update((items) => items.filter((each) => each.id !== 'a')));
    expect(result.current.items).toEqual([item('b')]);
    expect(server.requests).toHaveLength(1);
  });
});

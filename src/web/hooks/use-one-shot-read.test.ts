// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOneShotRead } from './use-one-shot-read';

/** A read the test answers by hand, one pending promise per call. */
function manualRead() {
  const calls: { key: string; resolve: (value: string) => void; reject: (error: unknown) => void }[] = [];
  const read = vi.fn(
    (key: string) =>
      new Promise<string>((resolve, reject) => {
        calls.push({ key, resolve, reject });
      }),
  );
  const answer = async (index: number, value: string) => {
    await act(async () => calls[index]?.resolve(value));
  };
  const fail = async (index: number, error: unknown) => {
    await act(async () => calls[index]?.reject(error));
  };
  return { read, calls, answer, fail };
}

describe('useOneShotRead', () => {
  afterEach(cleanup);

  it('has no answer while the read is on its way, then gives it with its key', async () => {
    const { read, answer } = manualRead();
    const { result } = renderHook(() => useOneShotRead('a', read));
    expect(result.current).toMatchObject({ data: null, failure: null });
    await answer(0, 'value of a');
    expect(result.current).toMatchObject({
      data: { key: 'a', value: 'value of a' },
      failure: null,
    });
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads nothing for a null key', () => {
    const { read } = manualRead();
    const { result } = renderHook(() => useOneShotRead(null, read));
    expect(read).not.toHaveBeenCalled();
    expect(result.current).toMatchObject({ data: null, failure: null });
  });

  it('drops the answer to a key that is no longer current, whenever it arrives', async () => {
    const { read, calls, answer } = manualRead();
    const { result, rerender } = renderHook(({ key }) => useOneShotRead(key, read), {
      initialProps: { key: 'a' },
    });
    rerender({ key: 'b' });
    expect(calls.map((call) => call.key)).toEqual(['a', 'b']);
    await answer(0, 'late a');
    expect(result.current).toMatchObject({ data: null });
    await answer(1, 'b');
    expect(result.current.data).toEqual({ key: 'b', value: 'b' });
    // Back to 'a': the answer for 'b' stays (its key says so) until 'a' is answered again.
    rerender({ key: 'a' });
    expect(result.current).toMatchObject({ data: { key: 'b', value: 'b' } });
    await answer(2, 'a again');
    expect(result.current).toMatchObject({ data: { key: 'a', value: 'a again' } });
  });

  it('keeps the last answer, with its key, when the key becomes null', async () => {
    const { read, answer } = manualRead();
    const { result, rerender } = renderHook(({ key }) => useOneShotRead(key, read), {
      initialProps: { key: 'a' as string | null },
    });
    await answer(0, 'a');
    rerender({ key: null });
    expect(result.current).toMatchObject({ data: { key: 'a', value: 'a' } });
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reports a failure with its key, and forgets the value of another key', async () => {
    const { read, answer, fail } = manualRead();
    const { result, rerender } = renderHook(({ key }) => useOneShotRead(key, read), {
      initialProps: { key: 'a' },
    });
    await answer(0, 'a');
    rerender({ key: 'b' });
    const problem = new Error('offline');
    await fail(1, problem);
    expect(result.current).toMatchObject({
      data: null,
      failure: { key: 'b', error: problem },
    });
  });

  it('reloads the same key, keeping the earlier value meanwhile and after a failed reload', async () => {
    const { read, answer, fail } = manualRead();
    const { result } = renderHook(() => useOneShotRead('list', read));
    await answer(0, 'first');
    act(() => result.current.reload());
    expect(read).toHaveBeenCalledTimes(2);
    expect(result.current).toMatchObject({ data: { key: 'list', value: 'first' } });
    await fail(1, 'down');
    expect(result.current).toMatchObject({
      data: { key: 'list', value: 'first' },
      failure: { key: 'list', error: 'down' },
    });
    act(() => result.current.reload());
    await answer(2, 'second');
    expect(result.current).toMatchObject({ data: { key: 'list', value: 'second' }, failure: null });
  });

  it('drops the answer of a read a reload replaced', async () => {
    const { read, answer } = manualRead();
    const { result } = renderHook(() => useOneShotRead('list', read));
    act(() => result.current.reload());
    await answer(1, 'newer');
    await answer(0, 'older');
    expect(result.current.data).toEqual({ key: 'list', value: 'newer' });
  });

  it("applies the page's own changes, which a read still on its way then replaces", async () => {
    const { read, answer } = manualRead();
    const { result } = renderHook(() => useOneShotRead('list', read));
    act(() => result.current.update((value) => `${value ?? ''}+added`));
    expect(result.current.data).toEqual({ key: 'list', value: '+added' });
    await answer(0, 'from the server');
    act(() => result.current.update((value) => `${value ?? ''}+added`));
    expect(result.current.data).toEqual({ key: 'list', value: 'from the server+added' });
    act(() => result.current.update(() => undefined));
    expect(result.current.data).toBeNull();
  });

  it('uses the newest read function without reading again for it', async () => {
    const first = manualRead();
    const second = manualRead();
    const { result, rerender } = renderHook(({ read }) => useOneShotRead('a', read), {
      initialProps: { read: first.read },
    });
    rerender({ read: second.read });
    expect(second.read).not.toHaveBeenCalled();
    act(() => result.current.reload());
    expect(second.read).toHaveBeenCalledWith('a');
    await second.answer(0, 'from the second');
    expect(result.current.data?.value).toBe('from the second');
  });

  it('sets nothing once unmounted', async () => {
    const { read, answer } = manualRead();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result, unmount } = renderHook(() => useOneShotRead('a', read));
    unmount();
    await answer(0, 'too late');
    expect(result.current.data).toBeNull();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});

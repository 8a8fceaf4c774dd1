// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNow } from './use-now';

const start = Date.parse('2026-06-15T12:00:00.000Z');

describe('useNow', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: start });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('is the time it was rendered at until its interval has passed, then the new time', () => {
    const { result } = renderHook(() => useNow(30_000));
    expect(result.current).toBe(start);
    act(() => vi.advanceTimersByTime(29_999));
    expect(result.current).toBe(start);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(start + 30_000);
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(start + 90_000);
  });

  it('keeps one timer while mounted, and none once unmounted', () => {
    const { unmount, rerender } = renderHook(() => useNow(1_000));
    rerender();
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { releaseWhenQuiet } from './quiet-release';

describe('releaseWhenQuiet', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('releases once the quiet period has passed since the last touch, not before', () => {
    const release = vi.fn();
    const quiet = releaseWhenQuiet({ quietMs: 10_000, release });
    quiet.touch();
    vi.advanceTimersByTime(6000);
    quiet.touch();
    vi.advanceTimersByTime(6000);
    expect(release).not.toHaveBeenCalled();
    vi.advanceTimersByTime(4000);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('releases once per quiet period: again only after a new touch', () => {
    const release = vi.fn();
    const quiet = releaseWhenQuiet({ quietMs: 1000, release });
    quiet.touch();
    vi.advanceTimersByTime(60_000);
    expect(release).toHaveBeenCalledTimes(1);
    quiet.touch();
    vi.advanceTimersByTime(999);
    expect(release).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(release).toHaveBeenCalledTimes(2);
  });

  it('never releases before the first touch, nor after stop', () => {
    const release = vi.fn();
    const quiet = releaseWhenQuiet({ quietMs: 1000, release });
    vi.advanceTimersByTime(5000);
    quiet.touch();
    quiet.stop();
    quiet.touch();
    vi.advanceTimersByTime(5000);
    expect(release).not.toHaveBeenCalled();
  });
});

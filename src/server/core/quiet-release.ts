/**
 * Runs `release` once the server has been quiet (no `touch`) for `quietMs`, then waits for the next touch
 * before it can run again. A touch only stores a time, so it is cheap enough for every request; one timer
 * is armed at a time, and none while the server stays quiet after a release.
 *
 * What it is for: a small server is quiet most of the day, and what serving left behind (cached bodies,
 * SQLite's page cache, the freed megabytes around them that glibc keeps) is memory nobody reads then
 * (docs/decisions/030-idle-footprint-cuts.md, second addendum).
 */
export function releaseWhenQuiet(options: { quietMs: number; release: () => void }): {
  touch(): void;
  stop(): void;
} {
  const { quietMs, release } = options;
  let lastTouch = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const check = (): void => {
    timer = undefined;
    const quietFor = performance.now() - lastTouch;
    if (quietFor < quietMs) {
      arm(quietMs - quietFor);
      return;
    }
    release();
  };
  const arm = (ms: number): void => {
    // Never keeps the process alive: a server shutting down need not wait for it.
    timer = setTimeout(check, ms).unref();
  };

  return {
    touch() {
      lastTouch = performance.now();
      if (timer === undefined && !stopped) arm(quietMs);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

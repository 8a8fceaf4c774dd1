import { setTimeout as delay } from 'node:timers/promises';

/**
 * How long any test waits for something that must happen: one bound for a loaded machine (CI, a fresh
 * clone installing as it runs), used by every helper here and by `expect.poll` (vitest.config.ts). It
 * only bounds a failure: a wait ends as soon as its condition holds, so a larger bound costs nothing.
 */
export const WAIT_MS = 20_000;

const POLL_INTERVAL_MS = 50;

/**
 * Calls `check` until it returns true or the deadline passes (then throws `failure()`'s message). A
 * check that throws counts as "not yet" (e.g. a connection refused while a server restarts).
 */
export async function pollUntil(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  failure: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(failure(), lastError === undefined ? {} : { cause: lastError });
    }
    await delay(POLL_INTERVAL_MS);
  }
}

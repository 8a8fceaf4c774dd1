import { setTimeout as delay } from 'node:timers/promises';

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

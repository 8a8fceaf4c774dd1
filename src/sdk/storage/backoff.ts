import { storageErrors } from './storage-error';

/** Waits `ms`; resolves early (never rejects) when `signal` aborts. Injectable so tests need not wait. */
export type SleepFunction = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: SleepFunction = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });

/** Time and randomness for the retry loop; tests pass a fake clock. */
export interface RetryClock {
  now(): number;
  sleep: SleepFunction;
  /** Uniform in [0, 1): the jitter. */
  random(): number;
}

/** One attempt's result: a value, or a failure worth another attempt (no answer, 5xx, 408, 429). */
export type AttemptOutcome<T> = { retryable: false; value: T } | { retryable: true };

/** The longest wait between attempts, in whole seconds before jitter. */
const MAX_WAIT_SECONDS = 64;

/**
 * Request-level retry (docs/storage-protocol.md#7-request-retry-and-back-off): the first attempt at once, then waits of
 * (2, 4, 8 … 64 s) + U[0,1) s. A global cap of `timeoutMs` starts with the first attempt: when it falls
 * inside a wait, the wait is cut short and one final attempt goes out at once; when it passes during an
 * attempt, that attempt finishes. A retryable failure after the cap is `storage/retry-limit-exceeded`;
 * an abort of `signal` is `storage/canceled`.
 */
export async function retryWithBackoff<T>(
  attempt: () => Promise<AttemptOutcome<T>>,
  options: { timeoutMs: number; clock: RetryClock; signal?: AbortSignal | undefined },
): Promise<T> {
  const { timeoutMs, clock, signal } = options;
  const deadline = clock.now() + timeoutMs;
  let waitSeconds = 1;
  let finalAttempt = false;
  for (;;) {
    if (signal?.aborted) throw storageErrors.canceled();
    const outcome = await attempt();
    if (!outcome.retryable) return outcome.value;
    if (signal?.aborted) throw storageErrors.canceled();
    if (finalAttempt || clock.now() >= deadline) throw storageErrors.retryLimitExceeded();
    if (waitSeconds < MAX_WAIT_SECONDS) waitSeconds *= 2;
    const waitMs = (waitSeconds + clock.random()) * 1000;
    const remaining = deadline - clock.now();
    if (waitMs >= remaining) {
      finalAttempt = true;
      await clock.sleep(remaining, signal);
    } else {
      await clock.sleep(waitMs, signal);
    }
  }
}

/** Statuses worth another attempt, besides no answer at all. */
export function isRetryStatus(status: number): boolean {
  return (status >= 500 && status < 600) || status === 408 || status === 429;
}

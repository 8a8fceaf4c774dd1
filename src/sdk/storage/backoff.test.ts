import { describe, expect, it } from 'vitest';
import { retryWithBackoff, type AttemptOutcome } from './backoff';
import { FakeClock } from './fake-server.testing';
import { StorageError } from './storage-error';

/** Runs the retry loop against a fake clock; returns when each attempt started and how it ended. */
async function run(options: {
  timeoutMs: number;
  jitter?: number;
  attemptMs?: number;
  succeedOn?: number;
  signal?: AbortSignal;
}) {
  const clock = new FakeClock(options.jitter ?? 0);
  const attempts: number[] = [];
  let outcome: unknown;
  try {
    outcome = await retryWithBackoff(
      async (): Promise<AttemptOutcome<string>> => {
        attempts.push(clock.time);
        clock.time += options.attemptMs ?? 0;
        return attempts.length === options.succeedOn
          ? { retryable: false, value: 'ok' }
          : { retryable: true };
      },
      { timeoutMs: options.timeoutMs, clock, signal: options.signal },
    );
  } catch (error) {
    outcome = error;
  }
  return { attempts, outcome, sleeps: clock.sleeps };
}

describe('request-level retry (docs/storage-protocol.md §7)', () => {
  it('with the 120 s cap: attempts at 0, 2.5, 7, 15.5, 32, 64.5 s and a forced one at 120 s', async () => {
    const { attempts, outcome } = await run({ timeoutMs: 120_000, jitter: 0.5 });
    expect(attempts).toEqual([0, 2500, 7000, 15_500, 32_000, 64_500, 120_000]);
    expect(outcome).toBeInstanceOf(StorageError);
    expect(outcome).toMatchObject({ code: 'storage/retry-limit-exceeded', status: 0 });
  });

  it('with a 5 s cap: attempts at 0, 2.4 and 5.0 s (the wire observation), then the error', async () => {
    const { attempts, outcome } = await run({ timeoutMs: 5000, jitter: 0.4 });
    expect(attempts).toEqual([0, 2400, 5000]);
    expect(outcome).toMatchObject({ code: 'storage/retry-limit-exceeded' });
  });

  it('waits 2, 4, 8 … s and never more than 64 s (+ jitter)', async () => {
    const { sleeps } = await run({ timeoutMs: 1_000_000, jitter: 0, succeedOn: 10 });
    expect(sleeps).toEqual([2000, 4000, 8000, 16_000, 32_000, 64_000, 64_000, 64_000, 64_000]);
  });

  it('adds the jitter to each wait', async () => {
    const { sleeps } = await run({ timeoutMs: 1_000_000, jitter: 0.999, succeedOn: 3 });
    expect(sleeps).toEqual([2999, 4999]);
  });

  it('lets an attempt in flight at the cap finish, then stops without another attempt', async () => {
    const { attempts, outcome } = await run({ timeoutMs: 5000, attemptMs: 10_000 });
    expect(attempts).toEqual([0]);
    expect(outcome).toMatchObject({ code: 'storage/retry-limit-exceeded' });
  });

  it('returns the first non-retryable outcome', async () => {
    const { attempts, outcome } = await run({ timeoutMs: 120_000, succeedOn: 3 });
    expect(attempts).toEqual([0, 2000, 6000]);
    expect(outcome).toBe('ok');
  });

  it('makes exactly one attempt with a cap of 0', async () => {
    const { attempts, outcome } = await run({ timeoutMs: 0 });
    expect(attempts).toEqual([0]);
    expect(outcome).toMatchObject({ code: 'storage/retry-limit-exceeded' });
  });

  it('stops with storage/canceled when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { attempts, outcome } = await run({ timeoutMs: 120_000, signal: controller.signal });
    expect(attempts).toEqual([]);
    expect(outcome).toMatchObject({ code: 'storage/canceled' });
  });
});

import { createHash } from 'node:crypto';
import type { Logger } from '../core/logger';
import { LOGIN_FAILURE_WINDOW_MS, messages } from '../../common';
import { tooManyRequests } from '../core/app-error';
import type { RateLimitCounters } from '../rate-limits/rate-limits-repository';

/** A login attempt counted against its account; `succeeded()` takes it back. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/**
 * Failed logins per account, whatever address they come from, counted in the shared `rate_limits` table
 * so every instance spends one budget. Each attempt is counted before its password is checked and taken
 * back when it succeeds: concurrent guesses cannot all pass a "not yet blocked" check together, and past
 * the limit even the right password is refused, so a guess there teaches nothing.
 *
 * Unknown emails are counted like real ones (the answer must not tell them apart). If the counter cannot
 * be written the attempt goes ahead, logged, as with the per-address limit (decision 009).
 */
export class LoginFailureLimit {
  constructor(private readonly deps: { counters: RateLimitCounters; maxFailures: number; log: Logger }) {}

  async begin(emailKey: string): Promise<LoginAttempt> {
    // Hashed: the table is shared bookkeeping and need not list who is being attacked.
    const key = `login-failures:${createHash('sha256').update(emailKey).digest('base64url')}`;
    const { counters, maxFailures, log } = this.deps;
    let counted: { count: number; ttl: number };
    try {
      counted = await counters.increment(key, LOGIN_FAILURE_WINDOW_MS);
    } catch (error) {
      log.error({ err: error }, 'counting a login attempt failed; it goes ahead unlimited');
      return { succeeded: async () => undefined };
    }
    if (counted.count > maxFailures) throw tooManyRequests(messages.tooManyLoginFailures, counted.ttl);
    return {
      succeeded: () =>
        counters
          .decrement(key)
          .catch((error: unknown) => log.error({ err: error }, 'taking back a login attempt failed')),
    };
  }
}

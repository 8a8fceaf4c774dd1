import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '../../common';
import type { ViewerResolver } from './viewer-resolver';
import { AppError } from '../core/app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Why this state-changing route has no per-user write limit, in words. The only way out of
     * `limitEveryWrite` (docs/decisions/045-every-write-limited-per-user.md).
     */
    writeLimitExempt?: string;
  }
}

/** Methods that change nothing; every other one is a write. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const tooManyWrites = (): Error => new AppError('too-many-requests', messages.tooManyWrites);

/**
 * A route's `config.rateLimit` for a write that each user may make `max` times a minute. The budget is the
 * user's, whatever address or instance the requests come from (the shared store of decision 009 on
 * PostgreSQL); a request without a viewer is counted by address, and is refused 401 by its route anyway.
 * It runs before the body is read. The plugin sets `Retry-After` on the 429.
 */
export function perUserRateLimit(
  viewers: ViewerResolver,
  max: number,
  options: {
    /** The refusal in the route's own error shape (the storage protocol has its own). */
    refusal?: () => Error;
    /** Requests of the route that are not counted (e.g. further chunks of an upload already counted). */
    exempt?: (request: FastifyRequest) => boolean;
  } = {},
): RateLimitOptions {
  const { refusal = tooManyWrites, exempt } = options;
  return {
    max,
    timeWindow: '1 minute',
    keyGenerator: async (request) => {
      const viewer = await viewers.viewerOf(request);
      return viewer ? `user:${viewer.uid}` : `address:${request.ip}`;
    },
    errorResponseBuilder: () => refusal(),
    ...(exempt ? { allowList: (request: FastifyRequest) => exempt(request) } : {}),
  };
}

/**
 * Every write is limited by construction: each route registered after this call whose method may change
 * state (anything but GET, HEAD and OPTIONS) and that brings no `rateLimit` of its own gets
 * `perUserRateLimit(viewers, writesPerMinute)`, its own budget per user, answered 429 with `Retry-After` and
 * `messages.tooManyWrites`. The only way out is `config.writeLimitExempt`, the reason in words; a write
 * route with `rateLimit: false` fails at start. Call it before @fastify/rate-limit is registered: the
 * plugin's own `onRoute` hook, which must run after this one, reads the limit this one sets.
 */
export function limitEveryWrite(
  app: FastifyInstance,
  viewers: ViewerResolver,
  writesPerMinute: number,
): void {
  const limit = perUserRateLimit(viewers, writesPerMinute);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => READ_METHODS.has(method))) return;
    const config = route.config ?? {};
    const name = `${methods.join(',')} ${route.url}`;
    if (config.writeLimitExempt !== undefined) {
      if (config.writeLimitExempt.trim() === '' || config.rateLimit !== undefined) {
        throw new Error(`${name}: writeLimitExempt needs a reason, and no rateLimit beside it`);
      }
      return;
    }
    if (config.rateLimit === false) {
      throw new Error(
        `${name}: a write route opts out of its limit with config.writeLimitExempt and a reason`,
      );
    }
    if (config.rateLimit === undefined) route.config = { ...config, rateLimit: limit };
  });
}

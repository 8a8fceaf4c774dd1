import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { messages } from '../../common';
import type { ViewerResolver } from '../auth/viewer';
import { AppError } from '../core/app-error';

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

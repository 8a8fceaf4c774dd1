import type { FastifyInstance } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { messages } from '../../common';
import type { DatabaseHandle } from '../db/database';
import { bodyOf } from '../http/error-handler';
import type { Metrics } from '../core/metrics';
import type { BlobStore } from '../storage/stores/blob-store';
import { checkReadiness } from './readiness';

/** Requests that matched no route are counted under one label, never by their raw URL. */
const UNMATCHED_ROUTE = 'unmatched';

export function registerReadinessRoute(
  server: FastifyInstance,
  deps: { database: DatabaseHandle; blobs: BlobStore },
): void {
  server.get('/api/ready', async (request, reply) => {
    const { ready, checks } = await checkReadiness(deps);
    reply.header('cache-control', 'no-store');
    if (ready) return { status: 'ready', checks };
    request.log.warn({ checks }, 'not ready');
    const failed = Object.fromEntries(Object.entries(checks).filter(([, outcome]) => outcome !== 'ok'));
    return reply
      .status(503)
      .send(bodyOf('unavailable', messages.notReady, { fields: failed, requestId: request.id }));
  });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Counts every answer by its route pattern, and serves `GET /metrics` to a scraper that presents
 * `Authorization: Bearer <METRICS_TOKEN>` (docs/decisions/024-operations.md).
 */
export function registerMetrics(server: FastifyInstance, metrics: Metrics, token: string): void {
  server.decorate('metrics', metrics);
  server.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    metrics.observeRequest({ method: request.method, route, status, seconds: reply.elapsedTime / 1000 });
    if (status === 429) metrics.countRateLimitRefusal(route);
  });
  server.get('/metrics', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!sameToken(given, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send(bodyOf('unauthenticated', messages.metricsTokenRequired, { requestId: request.id }));
    }
    const { contentType, body } = await metrics.render();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

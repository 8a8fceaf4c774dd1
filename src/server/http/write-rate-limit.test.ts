import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { ViewerResolver } from './viewer-resolver';
import { limitEveryWrite } from './write-rate-limit';

const WRITES_PER_MINUTE = 7;
/** The key generator is not called here: no request is made. */
const viewers = {} as ViewerResolver;

let app: FastifyInstance;
afterEach(async () => {
  await app.close();
});

/** A server with the hook, and what each route's config holds once every onRoute hook has run. */
function serverWithTheHook(): Map<string, RouteOptions['config']> {
  app = Fastify();
  limitEveryWrite(app, viewers, WRITES_PER_MINUTE);
  const configs = new Map<string, RouteOptions['config']>();
  app.addHook('onRoute', (route) => {
    configs.set(`${[route.method].flat().join(',')} ${route.url}`, route.config);
  });
  return configs;
}

const handler = async () => ({});

describe('limitEveryWrite', () => {
  it('gives every write route without a limit of its own the per-user write limit, and no read route', () => {
    const configs = serverWithTheHook();
    const own = { max: 1, timeWindow: '1 minute' };
    app.get('/read', handler);
    app.post('/write', handler);
    app.route({ method: ['GET', 'DELETE'], url: '/mixed', handler });
    app.put('/own', { config: { rateLimit: own } }, handler);
    app.post('/exempt', { config: { writeLimitExempt: 'writes nothing' } }, handler);

    expect(configs.get('GET /read')?.rateLimit).toBeUndefined();
    expect(configs.get('POST /write')?.rateLimit).toMatchObject({
      max: WRITES_PER_MINUTE,
      timeWindow: '1 minute',
    });
    expect(configs.get('GET,DELETE /mixed')?.rateLimit).toMatchObject({ max: WRITES_PER_MINUTE });
    expect(configs.get('PUT /own')?.rateLimit).toBe(own);
    expect(configs.get('POST /exempt')?.rateLimit).toBeUndefined();
  });

  it('refuses at registration a write route that opts out without a reason', () => {
    serverWithTheHook();
    expect(() => app.post('/off', { config: { rateLimit: false } }, handler)).toThrow(/writeLimitExempt/);
    expect(() => app.post('/blank', { config: { writeLimitExempt: ' ' } }, handler)).toThrow(/reason/);
    expect(() =>
      app.post('/both', { config: { writeLimitExempt: 'why', rateLimit: { max: 1 } } }, handler),
    ).toThrow(/reason/);
  });
});

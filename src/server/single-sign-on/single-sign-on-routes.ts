import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SsoPolicySchema } from '../../common/single-sign-on';
import { signedInSender } from '../auth/auth-routes';
import { parseInput } from '../core/validate';
import type { Logger } from '../core/logger';
import type { ViewerResolver } from '../http/viewer-resolver';
import { SsoFailure } from './oidc-providers';
import { OIDC_FLOW_TTL_MS, type SingleSignOnService } from './single-sign-on-service';
import type { SsoPolicyService } from './sso-policy';

/** Holds the id of the browser's sign-in in progress, so the callback is bound to the browser that started it. */
const FLOW_COOKIE = 'dojo_sso_flow';
const FLOW_COOKIE_PATH = '/api/auth/oidc/';

export const ProviderParamsSchema = z.object({ provider: z.string().min(1).max(64) });
export const StartQuerySchema = z.object({
  /** An invitation link's token, carried through the provider to the account it makes. */
  invitation: z.string().min(1).max(200).optional(),
  /** The first admin's setup link token (sign-up by invitation only, fresh install). */
  setup: z.string().min(1).max(200).optional(),
});

interface Deps {
  singleSignOn: SingleSignOnService;
  ssoPolicy: SsoPolicyService;
  viewers: ViewerResolver;
  publicUrl: string | undefined;
  rateLimitPerMinute: number;
  log: Logger;
}

/**
 * The browser's round trip through a provider (GET, as they are navigations: the start redirects to the
 * provider, the provider redirects back to the callback), and the admin's "Require single sign-on".
 * Every failure lands on the login page with a reason (`/login?sso_error=`), never on an error page.
 */
export function registerSingleSignOnRoutes(app: FastifyInstance, deps: Deps): void {
  const { singleSignOn, ssoPolicy, viewers, publicUrl, log } = deps;
  const rateLimit = { max: deps.rateLimitPerMinute, timeWindow: '1 minute' };
  const sendSignedIn = signedInSender(publicUrl);
  const secure = (request: FastifyRequest) =>
    publicUrl?.startsWith('https://') === true || request.protocol === 'https';

  const toLoginPage = (reply: FastifyReply, error: unknown, provider: string): FastifyReply => {
    if (!(error instanceof SsoFailure)) throw error;
    const level = error.reason === 'provider-unavailable' || error.reason === 'failed' ? 'warn' : 'info';
    log[level](
      { provider, reason: error.reason, detail: error.message, err: error.cause },
      'single sign-on refused',
    );
    return reply.redirect(`/login?sso_error=${encodeURIComponent(error.reason)}`, 302);
  };

  app.get('/api/auth/oidc/:provider/start', { config: { rateLimit } }, async (request, reply) => {
    const { provider } = parseInput(ProviderParamsSchema, request.params);
    const carry = parseInput(StartQuerySchema, request.query);
    try {
      const { flowId, url } = await singleSignOn.start(provider, carry);
      reply.setCookie(FLOW_COOKIE, flowId, {
        path: FLOW_COOKIE_PATH,
        httpOnly: true,
        // Lax: sent on the provider's top-level redirect back, never on another site's subrequests.
        sameSite: 'lax',
        secure: secure(request),
        maxAge: OIDC_FLOW_TTL_MS / 1000,
      });
      return reply.redirect(url, 302);
    } catch (error) {
      return toLoginPage(reply, error, provider);
    }
  });

  app.get('/api/auth/oidc/:provider/callback', { config: { rateLimit } }, async (request, reply) => {
    const { provider } = parseInput(ProviderParamsSchema, request.params);
    const flowId = request.cookies[FLOW_COOKIE];
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
    const query = new URL(request.url, 'http://callback.invalid').searchParams;
    try {
      const signedIn = await singleSignOn.finish(provider, flowId, query, userAgentOf(request));
      sendSignedIn(request, reply, signedIn);
      return reply.redirect('/', 302);
    } catch (error) {
      return toLoginPage(reply, error, provider);
    }
  });

  app.get('/api/admin/sso-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { policy: await ssoPolicy.read(viewer) };
  });

  app.put('/api/admin/sso-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const policy = parseInput(SsoPolicySchema, request.body);
    return { policy: await ssoPolicy.update(viewer, policy) };
  });
}

const userAgentOf = (request: FastifyRequest): string => (request.headers['user-agent'] ?? '').slice(0, 512);

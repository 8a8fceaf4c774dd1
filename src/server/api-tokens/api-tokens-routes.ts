import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_TOKEN_PREFIX,
  ApiTokenParamsSchema,
  apiTokenMessages,
  apiTokensMayCall,
  CreateApiTokenSchema,
  type ApiToken,
  type CreatedApiToken,
} from '../../common/api-tokens';
import { forbidden } from '../core/app-error';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { ApiTokensService } from './api-tokens-service';

/** A member's own tokens, from a browser session only (the service refuses a token). */
export function registerApiTokensRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; apiTokens: ApiTokensService },
): void {
  const { viewers, apiTokens } = deps;

  app.get('/api/account/api-tokens', async (request): Promise<{ tokens: ApiToken[] }> => {
    const viewer = await viewers.requireViewer(request);
    return { tokens: await apiTokens.list(viewer) };
  });

  app.post('/api/account/api-tokens', async (request, reply): Promise<CreatedApiToken> => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(CreateApiTokenSchema, request.body);
    const created = await apiTokens.create(viewer, input);
    // The secret is in this answer only: no cache along the way may keep it.
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(created);
  });

  app.delete('/api/account/api-tokens/:id', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(ApiTokenParamsSchema, request.params);
    await apiTokens.revoke(viewer, id);
    return reply.status(204).send();
  });
}

/** Methods that change nothing; every other one is a write. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Only what may be a personal API token costs a lookup here; every other request passes at once. */
const carriesApiToken = (request: FastifyRequest): boolean =>
  request.headers.authorization?.includes(API_TOKEN_PREFIX) === true;

/**
 * The one seam every request passes (docs/decisions/063-personal-api-tokens.md): a request signed with a
 * personal API token is refused 403 when it writes and the token may only read, and on the account's own
 * security routes (tokens, password, sessions, deletion, sign-in factors under /api/account, minting id
 * tokens) whatever its scope. Route patterns, not raw URLs, decide, so no spelling of a path slips past. Call
 * before the routes are registered.
 */
export function refuseWhatApiTokensMayNotDo(app: FastifyInstance, viewers: ViewerResolver): void {
  app.addHook('onRequest', async (request) => {
    if (!carriesApiToken(request)) return;
    const viewer = await viewers.viewerOf(request);
    // An unknown, revoked or expired token: the route answers 401 as for any missing credential.
    if (!viewer?.apiToken) return;
    if (!apiTokensMayCall(request.routeOptions.url ?? ''))
      throw forbidden(apiTokenMessages.browserSessionOnly);
    if (viewer.apiToken.scope === 'read' && !READ_METHODS.has(request.method)) {
      throw forbidden(apiTokenMessages.readOnly);
    }
  });
}

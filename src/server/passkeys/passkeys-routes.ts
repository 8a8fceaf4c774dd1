import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AddPasskeySchema,
  PasskeyAssertionSchema,
  PasskeyParamsSchema,
  passkeyMessages,
  RenamePasskeySchema,
  SecondStepPasskeyOptionsSchema,
} from '../../common/passkeys';
import { forbidden, unauthenticated } from '../core/app-error';
import type { Viewer } from '../core/viewer';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import { signedInSender } from '../auth/auth-routes';
import type { PasskeysService, SecondStep } from './passkeys-service';
import { relyingPartyOf } from './relying-party';

/**
 * Passkeys: managed in settings under /api/account/passkeys (a browser's session only), and the sign-in
 * with one alone or as the second step under /api/auth (docs/decisions/065-passkeys.md).
 */
export function registerPasskeyRoutes(
  app: FastifyInstance,
  deps: {
    passkeys: PasskeysService;
    secondStep: SecondStep;
    viewers: ViewerResolver;
    /** Sign-ins are limited per client address like the password login. */
    rateLimitPerMinute: number;
    publicUrl: string | undefined;
  },
): void {
  const { passkeys, secondStep, viewers, publicUrl } = deps;
  const rateLimit = { max: deps.rateLimitPerMinute, timeWindow: '1 minute' };
  const sendSignedIn = signedInSender(publicUrl);
  const relyingParty = (request: FastifyRequest) => relyingPartyOf(request.headers, publicUrl);

  /** The browser's own session: an id token or an API token never manages passkeys. */
  const requireBrowser = async (request: FastifyRequest): Promise<Viewer> => {
    const viewer = await viewers.sessionViewerOf(request);
    if (viewer) return viewer;
    if (request.headers.authorization) throw forbidden(passkeyMessages.browserSessionOnly);
    throw unauthenticated();
  };

  app.get('/api/account/passkeys', async (request) => passkeys.list(await requireBrowser(request)));

  app.post('/api/account/passkeys/options', async (request) => {
    const viewer = await requireBrowser(request);
    return passkeys.registrationOptions(viewer, relyingParty(request));
  });

  app.post('/api/account/passkeys', async (request, reply) => {
    const viewer = await requireBrowser(request);
    const input = parseInput(AddPasskeySchema, request.body);
    const passkey = await passkeys.register(viewer, relyingParty(request), input);
    return reply.status(201).send({ passkey });
  });

  app.patch('/api/account/passkeys/:id', async (request) => {
    const viewer = await requireBrowser(request);
    const { id } = parseInput(PasskeyParamsSchema, request.params);
    const { name } = parseInput(RenamePasskeySchema, request.body);
    return { passkey: await passkeys.rename(viewer, id, name) };
  });

  app.delete('/api/account/passkeys/:id', async (request, reply) => {
    const viewer = await requireBrowser(request);
    const { id } = parseInput(PasskeyParamsSchema, request.params);
    await passkeys.remove(viewer, id);
    return reply.status(204).send();
  });

  app.post('/api/auth/passkey/options', { config: { rateLimit } }, async (request) =>
    passkeys.signInOptions(relyingParty(request)),
  );

  app.post('/api/auth/passkey', { config: { rateLimit } }, async (request, reply) => {
    const input = parseInput(PasskeyAssertionSchema, request.body);
    const signedIn = await passkeys.signIn(relyingParty(request), input, userAgentOf(request));
    return sendSignedIn(request, reply, signedIn);
  });

  app.post('/api/auth/second-step/passkey/options', { config: { rateLimit } }, async (request) => {
    const { flow } = parseInput(SecondStepPasskeyOptionsSchema, request.body);
    return passkeys.secondStepOptions(secondStep, relyingParty(request), flow);
  });

  app.post('/api/auth/second-step/passkey', { config: { rateLimit } }, async (request, reply) => {
    const input = parseInput(PasskeyAssertionSchema, request.body);
    const signedIn = await passkeys.completeSecondStep(
      secondStep,
      relyingParty(request),
      input,
      userAgentOf(request),
    );
    return sendSignedIn(request, reply, signedIn);
  });
}

/** The User-Agent a session is listed under, cut to a sane length (as the password login does). */
const userAgentOf = (request: FastifyRequest): string => (request.headers['user-agent'] ?? '').slice(0, 512);

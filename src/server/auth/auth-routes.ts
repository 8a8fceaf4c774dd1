import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkThumbnail,
  IMAGE_SNIFF_BYTES,
  LoginSchema,
  messages,
  SignupFieldsSchema,
  type AuthResult,
  type FieldErrors,
  type SessionState,
} from '../../common';
import { THEME_COOKIE, type Theme } from '../../common/appearance';
import { forbidden, invalidArgument, unauthenticated } from '../core/app-error';
import { fieldErrorsOf, parseInput } from '../core/validate';
import { readProfileForm, type ProfileForm } from './profile-form';
import type { AuthService, SignedIn, SignupInput } from './auth-service';
import { SESSION_TTL_MS } from './auth-service';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { SecondStepService } from './second-step/second-step-service';
import { SESSION_COOKIE, userOf } from './viewer';

interface Deps {
  auth: AuthService;
  secondStep: SecondStepService;
  viewers: ViewerResolver;
  rateLimitPerMinute: number;
  /** The session cookie is `Secure` whenever the public URL is https, whatever the proxy in front says. */
  publicUrl: string | undefined;
}

const SIGNUP_TEXT_FIELDS = new Set(['email', 'password', 'displayName', 'invitation', 'setup']);

export function registerAuthRoutes(
  app: FastifyInstance,
  { auth, secondStep, viewers, rateLimitPerMinute, publicUrl }: Deps,
): void {
  const rateLimit = { max: rateLimitPerMinute, timeWindow: '1 minute' };
  const sendSignedIn = signedInSender(publicUrl);

  app.post('/api/auth/signup', { config: { rateLimit } }, async (request, reply) => {
    const form = parseSignupForm(await readProfileForm(request, SIGNUP_TEXT_FIELDS));
    const signedIn = await auth.signUp({ ...form, userAgent: userAgentOf(request) });
    return sendSignedIn(request, reply.status(201), signedIn);
  });

  app.post('/api/auth/login', { config: { rateLimit } }, async (request, reply) => {
    const input = parseInput(LoginSchema, request.body);
    // A right password signs in, or answers with the second step due (no cookie yet): decision 064.
    const login = await secondStep.logIn(input, userAgentOf(request));
    return 'signedIn' in login ? sendSignedIn(request, reply, login.signedIn) : login;
  });

  // Idempotent: logging out without a session still clears the cookie and succeeds.
  const logoutExempt = 'refusing it would keep alive a session its owner wants ended; each session ends once';
  app.post('/api/auth/logout', { config: { writeLimitExempt: logoutExempt } }, async (request, reply) => {
    const viewer = await viewers.viewerOf(request);
    if (viewer) await auth.logOut(viewer);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });

  // Only the session cookie mints: an id token that could mint its successor would live as long as its session.
  const tokenExempt = 'writes nothing; every tab asks for a token as it opens and reconnects';
  app.post('/api/auth/token', { config: { writeLimitExempt: tokenExempt } }, async (request) => {
    const viewer = await viewers.sessionViewerOf(request);
    if (viewer) return auth.mintIdToken(viewer);
    if (request.headers.authorization) throw forbidden(messages.idTokenCannotMint);
    throw unauthenticated();
  });

  app.get('/api/auth/session', async (request): Promise<SessionState> => {
    const viewer = await viewers.viewerOf(request);
    return { user: viewer ? userOf(viewer) : null };
  });
}

/** A year: the theme cookie only mirrors the account's choice, which every sign-in sets again. */
const THEME_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Mirrors the account's theme into the `dojo_theme` cookie (docs/decisions/069-dark-theme-and-room-to-work.md):
 * the server paints a pinned one on the pages it sends, and the app, finding the cookie, need not ask the
 * account ('system' is written too, so that a member who follows the device is not asked on every visit).
 * Readable by the page: a preference, never a secret.
 */
export function themeCookieSetter(publicUrl: string | undefined) {
  const httpsOnly = publicUrl?.startsWith('https://') ?? false;
  return (request: FastifyRequest, reply: FastifyReply, theme: Theme): void => {
    reply.setCookie(THEME_COOKIE, theme, {
      path: '/',
      sameSite: 'lax',
      secure: httpsOnly || request.protocol === 'https',
      maxAge: THEME_COOKIE_MAX_AGE_SECONDS,
    });
  };
}

/**
 * Turns a sign-in into the session cookie, the theme cookie and the answer's body, for every way of signing
 * in (password, a second step, a passkey, a provider). The cookies are `Secure` whenever the public URL is
 * https.
 */
export function signedInSender(publicUrl: string | undefined) {
  const httpsOnly = publicUrl?.startsWith('https://') ?? false;
  const setThemeCookie = themeCookieSetter(publicUrl);
  return (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): AuthResult => {
    reply.setCookie(SESSION_COOKIE, signedIn.sessionToken, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: httpsOnly || request.protocol === 'https',
      maxAge: SESSION_TTL_MS / 1000,
    });
    // After the session's: clients that read one cookie read the first.
    setThemeCookie(request, reply, signedIn.theme);
    return { user: signedIn.user, idToken: signedIn.idToken, expiresIn: signedIn.expiresIn };
  };
}

/** Checks every field and the thumbnail at once, so one 400 names every problem the form shows. */
function parseSignupForm({ fields, thumbnail }: ProfileForm): Omit<SignupInput, 'userAgent'> {
  const parsed = SignupFieldsSchema.safeParse(fields);
  const problems: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  const thumbnailProblem = checkThumbnail({
    size: thumbnail ? (thumbnail.tooLarge ? Number.MAX_SAFE_INTEGER : thumbnail.bytes.length) : undefined,
    head: thumbnail?.bytes.subarray(0, IMAGE_SNIFF_BYTES),
  });
  if (thumbnailProblem) problems.thumbnail = thumbnailProblem;
  if (!parsed.success || !thumbnail || thumbnailProblem) throw invalidArgument(problems);
  const token = (name: string) =>
    typeof fields[name] === 'string' && fields[name] ? fields[name] : undefined;
  return {
    fields: parsed.data,
    thumbnail: { bytes: thumbnail.bytes, fileName: thumbnail.fileName },
    invitation: token('invitation'),
    setup: token('setup'),
  };
}

/** The User-Agent a session is listed under, cut to a sane length. */
export const userAgentOf = (request: FastifyRequest): string =>
  (request.headers['user-agent'] ?? '').slice(0, 512);

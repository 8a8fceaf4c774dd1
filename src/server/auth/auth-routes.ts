import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  checkThumbnail,
  IMAGE_SNIFF_BYTES,
  LoginSchema,
  messages,
  SIGNUP_BODY_MAX_BYTES,
  SignupFieldsSchema,
  THUMBNAIL_MAX_BYTES,
  type AuthResult,
  type FieldErrors,
  type SessionState,
} from '../../common';
import { AppError, forbidden, invalidArgument, unauthenticated } from '../shared/app-error';
import { fieldErrorsOf, parseInput } from '../shared/validate';
import { refuseDeclaredBodyOver } from '../http/request-body';
import type { AuthService, SignedIn, SignupInput } from './auth-service';
import { SESSION_TTL_MS } from './auth-service';
import { SESSION_COOKIE, userOf, type ViewerResolver } from './viewer';

interface Deps {
  auth: AuthService;
  viewers: ViewerResolver;
  rateLimitPerMinute: number;
  /** The session cookie is `Secure` whenever the public URL is https, whatever the proxy in front says. */
  publicUrl: string | undefined;
}

const SIGNUP_TEXT_FIELDS = new Set(['email', 'password', 'displayName']);

export function registerAuthRoutes(
  app: FastifyInstance,
  { auth, viewers, rateLimitPerMinute, publicUrl }: Deps,
): void {
  const rateLimit = { max: rateLimitPerMinute, timeWindow: '1 minute' };
  const httpsOnly = publicUrl?.startsWith('https://') ?? false;
  const sendSignedIn = (request: FastifyRequest, reply: FastifyReply, signedIn: SignedIn): AuthResult => {
    reply.setCookie(SESSION_COOKIE, signedIn.sessionToken, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: httpsOnly || request.protocol === 'https',
      maxAge: SESSION_TTL_MS / 1000,
    });
    return { user: signedIn.user, idToken: signedIn.idToken, expiresIn: signedIn.expiresIn };
  };

  app.post('/api/auth/signup', { config: { rateLimit } }, async (request, reply) => {
    const signedIn = await auth.signUp(parseSignupForm(await readSignupForm(request)));
    return sendSignedIn(request, reply.status(201), signedIn);
  });

  app.post('/api/auth/login', { config: { rateLimit } }, async (request, reply) => {
    return sendSignedIn(request, reply, await auth.logIn(parseInput(LoginSchema, request.body)));
  });

  // Idempotent: logging out without a session still clears the cookie and succeeds.
  app.post('/api/auth/logout', async (request, reply) => {
    const viewer = await viewers.viewerOf(request);
    if (viewer) await auth.logOut(viewer);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.status(204).send();
  });

  // Only the session cookie mints: an id token that could mint its successor would live as long as its session.
  app.post('/api/auth/token', async (request) => {
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

/** The signup form as read, before any check. */
interface SignupForm {
  fields: Record<string, unknown>;
  thumbnail: { bytes: Buffer; fileName: string | undefined; tooLarge: boolean } | undefined;
}

/** Checks every field and the thumbnail at once, so one 400 names every problem the form shows. */
function parseSignupForm({ fields, thumbnail }: SignupForm): SignupInput {
  const parsed = SignupFieldsSchema.safeParse(fields);
  const problems: FieldErrors = parsed.success ? {} : fieldErrorsOf(parsed.error);
  const thumbnailProblem = checkThumbnail({
    size: thumbnail ? (thumbnail.tooLarge ? Number.MAX_SAFE_INTEGER : thumbnail.bytes.length) : undefined,
    head: thumbnail?.bytes.subarray(0, IMAGE_SNIFF_BYTES),
  });
  if (thumbnailProblem) problems.thumbnail = thumbnailProblem;
  if (!parsed.success || !thumbnail || thumbnailProblem) throw invalidArgument(problems);
  return { fields: parsed.data, thumbnail: { bytes: thumbnail.bytes, fileName: thumbnail.fileName } };
}

/**
 * Reads the multipart signup form; the thumbnail is read only up to one byte past the limit. A form that
 * declares more bytes than the largest valid one is refused before it is read.
 */
async function readSignupForm(request: FastifyRequest): Promise<SignupForm> {
  refuseDeclaredBodyOver(
    request,
    SIGNUP_BODY_MAX_BYTES,
    () =>
      new AppError('payload-too-large', messages.thumbnailTooLarge, {
        thumbnail: messages.thumbnailTooLarge,
      }),
  );
  const fields: Record<string, unknown> = {};
  let thumbnail: SignupForm['thumbnail'];
  const parts = request.parts({
    limits: { fileSize: THUMBNAIL_MAX_BYTES + 1, files: 1, fields: 8, fieldSize: 4096, parts: 10 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname === 'thumbnail') thumbnail = await readFilePart(part);
        else await drain(part);
      } else if (SIGNUP_TEXT_FIELDS.has(part.fieldname)) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    // The form parser (busboy) throws plain errors, without a status, for a body it cannot read: a
    // multipart type without a boundary, a malformed part. They are the client's, not a 500.
    if (error instanceof Error && (error as FastifyError).statusCode === undefined) {
      request.log.info({ err: error }, 'unreadable signup form');
      throw new AppError('invalid-argument', messages.badRequest);
    }
    throw error;
  }
  return { fields, thumbnail: thumbnail && thumbnail.bytes.length > 0 ? thumbnail : undefined };
}

async function readFilePart(part: MultipartFile): Promise<NonNullable<SignupForm['thumbnail']>> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), fileName: part.filename, tooLarge: part.file.truncated };
}

async function drain(part: MultipartFile): Promise<void> {
  for await (const _chunk of part.file) {
    // discard unexpected files
  }
}

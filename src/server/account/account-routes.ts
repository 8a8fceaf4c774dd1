import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ChangePasswordSchema,
  checkThumbnail,
  DeleteAccountSchema,
  DisplayNameSchema,
  IMAGE_SNIFF_BYTES,
  messages,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  type FieldErrors,
} from '../../common';
import { readProfileForm, type ProfileForm } from '../auth/profile-form';
import type { ViewerResolver } from '../http/viewer-resolver';
import { AppError, invalidArgument } from '../core/app-error';
import { fieldErrorsOf, parseInput } from '../core/validate';
import { perUserRateLimit } from '../http/write-rate-limit';
import { TokenParamsSchema } from '../team/team-routes';
import type { AccountService, ProfileChange } from './account-service';
import type { PasswordResetService } from '../team/password-reset-service';

const PROFILE_TEXT_FIELDS = new Set(['displayName']);
export const SessionParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** A profile form: an optional new name and an optional new picture, at least one; every problem at once. */
function parseProfileForm({ fields, thumbnail }: ProfileForm): ProfileChange {
  const problems: FieldErrors = {};
  let displayName: string | undefined;
  if (fields.displayName !== undefined) {
    const parsed = DisplayNameSchema.safeParse(fields.displayName);
    if (parsed.success) displayName = parsed.data;
    else
      Object.assign(problems, {
        displayName: Object.values(fieldErrorsOf(parsed.error))[0] ?? messages.badRequest,
      });
  }
  if (thumbnail) {
    const problem = checkThumbnail({
      size: thumbnail.tooLarge ? Number.MAX_SAFE_INTEGER : thumbnail.bytes.length,
      head: thumbnail.bytes.subarray(0, IMAGE_SNIFF_BYTES),
    });
    if (problem) problems.thumbnail = problem;
  }
  if (Object.keys(problems).length > 0) throw invalidArgument(problems);
  if (displayName === undefined && !thumbnail)
    throw invalidArgument({ displayName: messages.displayNameRequired });
  return {
    displayName,
    thumbnail: thumbnail ? { bytes: thumbnail.bytes, fileName: thumbnail.fileName } : undefined,
  };
}

/** The signed-in user's account under /api/account, and the public password-reset routes. */
export function registerAccountRoutes(
  app: FastifyInstance,
  deps: {
    viewers: ViewerResolver;
    account: AccountService;
    passwordResets: PasswordResetService;
    rateLimitPerMinute: number;
  },
): void {
  const { viewers, account, passwordResets } = deps;
  // Reset emails and resets are limited per client address like login.
  const rateLimit = { max: deps.rateLimitPerMinute, timeWindow: '1 minute' };
  // A signed-in password check is limited per account with login's budget: a stolen session tried from
  // many addresses gets no more guesses (docs/decisions/045-every-write-limited-per-user.md).
  const passwordCheckLimit = perUserRateLimit(viewers, deps.rateLimitPerMinute, {
    refusal: () => new AppError('too-many-requests', messages.tooManyAttempts),
  });

  app.patch('/api/account/profile', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const change = parseProfileForm(await readProfileForm(request, PROFILE_TEXT_FIELDS));
    return { user: await account.updateProfile(viewer, change) };
  });

  app.post('/api/account/password', { config: { rateLimit: passwordCheckLimit } }, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    await account.changePassword(viewer, parseInput(ChangePasswordSchema, request.body));
    return reply.status(204).send();
  });

  app.get('/api/account/sessions', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { sessions: await account.listSessions(viewer) };
  });

  app.delete('/api/account/sessions/:id', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(SessionParamsSchema, request.params);
    await account.signOutSession(viewer, id);
    return reply.status(204).send();
  });

  app.post('/api/account/sessions/sign-out-others', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    await account.signOutOtherSessions(viewer);
    return reply.status(204).send();
  });

  app.post('/api/account/delete', { config: { rateLimit: passwordCheckLimit } }, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { password } = parseInput(DeleteAccountSchema, request.body);
    await account.deleteAccount(viewer, password);
    return reply.status(204).send();
  });

  app.post('/api/auth/password-reset/request', { config: { rateLimit } }, async (request, reply) => {
    const { email } = parseInput(PasswordResetRequestSchema, request.body);
    const { message, afterAnswer } = await passwordResets.requestByEmail(email);
    // The lookup and the email start once the answer has left (or the client has gone), for every address.
    reply.raw.once('close', () => void afterAnswer());
    return reply.status(202).send({ message });
  });

  app.get('/api/auth/password-reset/:token', async (request) => {
    const { token } = parseInput(TokenParamsSchema, request.params);
    return passwordResets.check(token);
  });

  app.post('/api/auth/password-reset', { config: { rateLimit } }, async (request, reply) => {
    const { token, password } = parseInput(PasswordResetSchema, request.body);
    await passwordResets.reset(token, password);
    return reply.status(204).send();
  });
}

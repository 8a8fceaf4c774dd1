import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ChangeRoleSchema,
  CreateInvitationSchema,
  DISPLAY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  MEMBERS_PAGE_SIZE,
  messages,
  SignupPolicySchema,
  type AuthOptions,
} from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import { invalidArgument } from '../core/app-error';
import { parseInput } from '../core/validate';
import type { InvitationsService } from './invitations-service';
import type { MembersService } from './members-service';
import type { PasswordResetService } from './password-reset-service';
import type { SignupPolicyService } from './signup-policy-service';
import type { SsoOptions } from '../../common/single-sign-on';

export const MembersQuerySchema = z.object({
  /** Part of a display name (case and accents ignored) or of an email address. */
  search: z.string().max(Math.max(DISPLAY_NAME_MAX_LENGTH, EMAIL_MAX_LENGTH)).optional(),
  /** The previous page's `nextCursor`. */
  after: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(MEMBERS_PAGE_SIZE),
});

export const MemberParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const TokenParamsSchema = z.object({ token: z.string().min(1).max(200) });

/** Admin routes under /api/admin (403 for members), and the public sign-up options and invitation check. */
export function registerTeamRoutes(
  app: FastifyInstance,
  deps: {
    viewers: ViewerResolver;
    members: MembersService;
    invitations: InvitationsService;
    signupPolicy: SignupPolicyService;
    passwordResets: PasswordResetService;
    /** The providers and whether single sign-on is required (single-sign-on/, wired by the app). */
    ssoPolicy?: { options(): Promise<SsoOptions> };
  },
): void {
  const { viewers, members, invitations, signupPolicy, passwordResets } = deps;

  app.get('/api/auth/options', async (): Promise<AuthOptions & SsoOptions> => ({
    signupPolicy: await signupPolicy.current(),
    passwordResetByEmail: passwordResets.byEmail,
    ...((await deps.ssoPolicy?.options()) ?? { providers: [], ssoRequired: false }),
  }));

  app.get('/api/invitations/:token', async (request) => {
    const { token } = parseInput(TokenParamsSchema, request.params);
    return invitations.check(token);
  });

  app.get('/api/admin/members', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(MembersQuerySchema, request.query);
    return members.list(viewer, query);
  });

  app.patch('/api/admin/members/:id', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    const { role } = parseInput(ChangeRoleSchema, request.body);
    return { member: await members.setRole(viewer, id, role) };
  });

  app.post('/api/admin/members/:id/deactivate', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    return { member: await members.deactivate(viewer, id) };
  });

  app.post('/api/admin/members/:id/reactivate', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    return { member: await members.reactivate(viewer, id) };
  });

  app.post('/api/admin/members/:id/password-reset', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    const link = await passwordResets.createLink(viewer, id);
    return reply.status(201).send(link);
  });

  app.get('/api/admin/signup-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { policy: await signupPolicy.read(viewer) };
  });

  app.put('/api/admin/signup-policy', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const policy = parseInput(SignupPolicySchema, request.body);
    return { policy: await signupPolicy.update(viewer, policy) };
  });

  app.get('/api/admin/invitations', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { invitations: await invitations.list(viewer) };
  });

  app.post('/api/admin/invitations', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    // Every field has a default: a form post, which the JSON parser never reads, would make an invitation.
    if (request.isMultipart()) throw invalidArgument({}, messages.badRequest);
    const input = parseInput(CreateInvitationSchema, request.body);
    return reply.status(201).send(await invitations.create(viewer, input));
  });

  app.delete('/api/admin/invitations/:id', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(MemberParamsSchema, request.params);
    return { invitation: await invitations.revoke(viewer, id) };
  });
}

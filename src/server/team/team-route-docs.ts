import {
  AuthOptionsSchema,
  ChangeRoleSchema,
  CreatedInvitationSchema,
  CreateInvitationSchema,
  InvitationCheckSchema,
  InvitationListSchema,
  InvitationResultSchema,
  MemberPageSchema,
  MemberResultSchema,
  PasswordResetLinkSchema,
  SignupPolicySchema,
} from '../../common';
import { z } from 'zod/mini';
import { SsoOptionsSchema } from '../../common/single-sign-on';
import { describeRoutes, jsonBody, type RouteDescription } from '../http/api-docs';
import { MemberParamsSchema, MembersQuerySchema, TokenParamsSchema } from './team-routes';

const PolicyResultSchema = z.object({ policy: SignupPolicySchema });

/**
 * Whether a one-time link (an invitation, a password reset) can still be used, by its token, before the
 * form that uses it: 404 for an unknown link, 410 for one that no longer works.
 */
export const checksLink = (
  route: Omit<RouteDescription, 'caller' | 'proof' | 'params' | 'errors'>,
): RouteDescription => ({
  ...route,
  caller: 'anyone',
  params: TokenParamsSchema,
  errors: ['not-found', 'gone'],
});

const memberAnswer = { status: 200, description: 'The member', schema: MemberResultSchema };

/** An admin's route on one member, by id: 404 when there is none. */
const onMember = (
  route: Omit<RouteDescription, 'tag' | 'caller' | 'proof' | 'params'>,
): RouteDescription => ({
  ...route,
  tag: 'Team',
  caller: 'admin',
  params: MemberParamsSchema,
  errors: ['not-found', ...(route.errors ?? [])],
});

export const teamRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/auth/options',
    tag: 'Auth',
    summary: "Who may sign up, whether 'Forgot password?' can email a link, and the single sign-on providers",
    caller: 'anyone',
    response: {
      status: 200,
      description: 'The sign-up policy, reset and single sign-on options',
      schema: z.extend(AuthOptionsSchema, SsoOptionsSchema.shape),
    },
  },
  checksLink({
    method: 'GET',
    path: '/api/invitations/{token}',
    tag: 'Team',
    summary: 'Whether an invitation link can still be used',
    description: '404 for an unknown link; 410 with the reason for a used, expired or revoked one.',
    response: { status: 200, description: 'The invitation is open', schema: InvitationCheckSchema },
  }),
  {
    method: 'GET',
    path: '/api/admin/members',
    tag: 'Team',
    summary: 'Members by display name, a page at a time (admins)',
    description:
      '`search` matches part of a name (case and accents ignored) or of an email; pass `nextCursor` as `after` for the next page. Deleted accounts are not listed.',
    caller: 'admin',
    query: MembersQuerySchema,
    response: { status: 200, description: 'A page of members', schema: MemberPageSchema },
  },
  onMember({
    method: 'PATCH',
    path: '/api/admin/members/{id}',
    summary: "Changes a member's role (admins)",
    description: '409 when it would leave the team without an active admin.',
    body: jsonBody(ChangeRoleSchema),
    response: memberAnswer,
    errors: ['conflict'],
  }),
  onMember({
    method: 'POST',
    path: '/api/admin/members/{id}/deactivate',
    summary: 'Deactivates a member: no sign-in, every session ends, open tabs are signed out (admins)',
    response: memberAnswer,
    errors: ['conflict'],
  }),
  onMember({
    method: 'POST',
    path: '/api/admin/members/{id}/reactivate',
    summary: 'Lets a deactivated member sign in again (admins)',
    response: memberAnswer,
  }),
  onMember({
    method: 'POST',
    path: '/api/admin/members/{id}/password-reset',
    summary: 'A one-time link that sets a new password for the member, valid for an hour (admins)',
    response: {
      status: 201,
      description: "The link: on PUBLIC_URL, else a path to resolve against the server's origin",
      schema: PasswordResetLinkSchema,
    },
  }),
  {
    method: 'GET',
    path: '/api/admin/signup-policy',
    tag: 'Team',
    summary: 'Who may sign up (admins)',
    caller: 'admin',
    response: { status: 200, description: 'The policy', schema: PolicyResultSchema },
  },
  {
    method: 'PUT',
    path: '/api/admin/signup-policy',
    tag: 'Team',
    summary: 'Sets who may sign up: open, invitation only, or these email domains (admins)',
    description: 'Takes effect at once on every instance. Invitations admit under any policy.',
    caller: 'admin',
    body: jsonBody(SignupPolicySchema),
    response: { status: 200, description: 'The policy', schema: PolicyResultSchema },
  },
  {
    method: 'GET',
    path: '/api/admin/invitations',
    tag: 'Team',
    summary: 'The newest 200 invitations with their state: open, used, expired or revoked (admins)',
    caller: 'admin',
    response: { status: 200, description: 'The invitations', schema: InvitationListSchema },
  },
  {
    method: 'POST',
    path: '/api/admin/invitations',
    tag: 'Team',
    summary: 'Creates an invitation link (admins)',
    description:
      'Up to `maxUses` signups (default 1) within `expiresInDays` (default 7), optionally only for `email`. The link is in this answer only.',
    caller: 'admin',
    body: jsonBody(CreateInvitationSchema),
    response: {
      status: 201,
      description:
        "The invitation and its link: on PUBLIC_URL, else a path to resolve against the server's origin",
      schema: CreatedInvitationSchema,
    },
  },
  {
    method: 'DELETE',
    path: '/api/admin/invitations/{id}',
    tag: 'Team',
    summary: 'Revokes an invitation (admins)',
    caller: 'admin',
    params: MemberParamsSchema,
    response: { status: 200, description: 'The invitation', schema: InvitationResultSchema },
    errors: ['not-found'],
  },
]);

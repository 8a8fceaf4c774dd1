import {
  AccountSessionListSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  SessionStateSchema,
} from '../../common';
import { z } from 'zod/mini';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { onOwnAccount } from '../http/route-doc-builders';
import { checksLink } from '../team/team-route-docs';
import { SessionParamsSchema } from './account-routes';

export const accountRouteDocs = describeRoutes([
  onOwnAccount({
    method: 'PATCH',
    path: '/api/account/profile',
    summary: 'Changes the display name and/or the avatar (multipart: displayName, thumbnail)',
    description:
      'The thumbnail follows the signup rules. The change reaches every open users panel, project and comment live; the old avatar URL works until the new one is in place.',
    body: {
      contentType: 'multipart/form-data',
      schema: z.object({ displayName: z.optional(z.string()), thumbnail: z.optional(z.string()) }),
    },
    response: { status: 200, description: 'The signed-in user', schema: SessionStateSchema },
    // 409: another member already goes by the name (docs/decisions/046-members-who-leave.md).
    errors: ['payload-too-large', 'conflict'],
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/password',
    summary: "Changes the password (needs the current one); the account's other sessions end",
    body: jsonBody(ChangePasswordSchema),
    response: { status: 204, description: 'Changed' },
    errors: ['forbidden', 'too-many-requests'],
  }),
  onOwnAccount({
    method: 'GET',
    path: '/api/account/sessions',
    summary: "The account's sessions: device, when created, last seen, which is this one",
    response: { status: 200, description: 'The sessions', schema: AccountSessionListSchema },
  }),
  onOwnAccount({
    method: 'DELETE',
    path: '/api/account/sessions/{id}',
    summary: 'Signs out one session (its open tabs are signed out live)',
    params: SessionParamsSchema,
    response: { status: 204, description: 'Signed out' },
    errors: ['not-found'],
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/sessions/sign-out-others',
    summary: 'Signs out every session but this one',
    response: { status: 204, description: 'Signed out' },
  }),
  onOwnAccount({
    method: 'POST',
    path: '/api/account/delete',
    summary: 'Deletes the account, confirmed by its password',
    description:
      "Projects and comments stay and show a deleted user; the email may sign up again. 409 for the team's last admin.",
    body: jsonBody(DeleteAccountSchema),
    response: { status: 204, description: 'Deleted and signed out everywhere' },
    errors: ['forbidden', 'conflict', 'too-many-requests'],
  }),
  {
    method: 'POST',
    path: '/api/auth/password-reset/request',
    tag: 'Auth',
    summary: "'Forgot password?': emails a one-time link valid for an hour",
    description:
      'The same 202 answer whether or not the address has an account. 404 when the server has no SMTP_URL; 429 past 3 emails per address per hour.',
    caller: 'anyone',
    body: jsonBody(PasswordResetRequestSchema),
    response: { status: 202, description: 'Accepted', schema: z.object({ message: z.string() }) },
    errors: ['not-found', 'too-many-requests'],
  },
  checksLink({
    method: 'GET',
    path: '/api/auth/password-reset/{token}',
    tag: 'Auth',
    summary: 'Whether a reset link can still be used',
    response: { status: 200, description: 'Usable', schema: z.object({ expiresAt: z.string() }) },
  }),
  {
    method: 'POST',
    path: '/api/auth/password-reset',
    tag: 'Auth',
    summary: 'Sets a new password with a reset link; every session of the account ends',
    caller: 'anyone',
    body: jsonBody(PasswordResetSchema),
    response: { status: 204, description: 'Password set' },
    errors: ['not-found', 'gone', 'too-many-requests'],
  },
]);

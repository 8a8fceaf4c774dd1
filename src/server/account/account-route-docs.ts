import {
  AccountSessionListSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  SessionStateSchema,
} from '../../common';
import { z } from 'zod/mini';
import type { RouteDoc } from '../http/api-docs';
import { TokenParamsSchema } from '../team/team-routes';
import { SessionParamsSchema } from './account-routes';

const json = (schema: RouteDoc['response']['schema'] & object) => ({
  contentType: 'application/json',
  schema,
});

export const accountRouteDocs: RouteDoc[] = [
  {
    method: 'PATCH',
    path: '/api/account/profile',
    tag: 'Account',
    summary: 'Changes the display name and/or the avatar (multipart: displayName, thumbnail)',
    description:
      'The thumbnail follows the signup rules. The change reaches every open users panel, project and comment live; the old avatar URL works until the new one is in place.',
    auth: 'session-or-token',
    body: {
      contentType: 'multipart/form-data',
      schema: z.object({ displayName: z.optional(z.string()), thumbnail: z.optional(z.string()) }),
    },
    response: { status: 200, description: 'The signed-in user', schema: SessionStateSchema },
    errors: ['invalid-argument', 'unauthenticated', 'payload-too-large'],
  },
  {
    method: 'POST',
    path: '/api/account/password',
    tag: 'Account',
    summary: "Changes the password (needs the current one); the account's other sessions end",
    auth: 'session-or-token',
    body: json(ChangePasswordSchema),
    response: { status: 204, description: 'Changed' },
    errors: ['invalid-argument', 'unauthenticated', 'forbidden', 'too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/account/sessions',
    tag: 'Account',
    summary: "The account's sessions: device, when created, last seen, which is this one",
    auth: 'session-or-token',
    response: { status: 200, description: 'The sessions', schema: AccountSessionListSchema },
    errors: ['unauthenticated'],
  },
  {
    method: 'DELETE',
    path: '/api/account/sessions/{id}',
    tag: 'Account',
    summary: 'Signs out one session (its open tabs are signed out live)',
    auth: 'session-or-token',
    params: SessionParamsSchema,
    response: { status: 204, description: 'Signed out' },
    errors: ['invalid-argument', 'unauthenticated', 'not-found'],
  },
  {
    method: 'POST',
    path: '/api/account/sessions/sign-out-others',
    tag: 'Account',
    summary: 'Signs out every session but this one',
    auth: 'session-or-token',
    response: { status: 204, description: 'Signed out' },
    errors: ['unauthenticated'],
  },
  {
    method: 'POST',
    path: '/api/account/delete',
    tag: 'Account',
    summary: 'Deletes the account, confirmed by its password',
    description:
      "Projects and comments stay and show a deleted user; the email may sign up again. 409 for the team's last admin.",
    auth: 'session-or-token',
    body: json(DeleteAccountSchema),
    response: { status: 204, description: 'Deleted and signed out everywhere' },
    errors: ['invalid-argument', 'unauthenticated', 'forbidden', 'conflict', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/password-reset/request',
    tag: 'Auth',
    summary: "'Forgot password?': emails a one-time link valid for an hour",
    description:
      'The same 202 answer whether or not the address has an account. 404 when the server has no SMTP_URL; 429 past 3 emails per address per hour.',
    auth: 'none',
    body: json(PasswordResetRequestSchema),
    response: { status: 202, description: 'Accepted', schema: z.object({ message: z.string() }) },
    errors: ['invalid-argument', 'not-found', 'too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/auth/password-reset/{token}',
    tag: 'Auth',
    summary: 'Whether a reset link can still be used',
    auth: 'none',
    params: TokenParamsSchema,
    response: { status: 200, description: 'Usable', schema: z.object({ expiresAt: z.string() }) },
    errors: ['invalid-argument', 'not-found', 'gone'],
  },
  {
    method: 'POST',
    path: '/api/auth/password-reset',
    tag: 'Auth',
    summary: 'Sets a new password with a reset link; every session of the account ends',
    auth: 'none',
    body: json(PasswordResetSchema),
    response: { status: 204, description: 'Password set' },
    errors: ['invalid-argument', 'not-found', 'gone', 'too-many-requests'],
  },
];

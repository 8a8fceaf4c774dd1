import { z } from 'zod';
import {
  AuthResultSchema,
  IdTokenResultSchema,
  LoginResultSchema,
  LoginSchema,
  SessionStateSchema,
  SignupFieldsSchema,
} from '../../common';
import { describeRoutes, jsonBody } from '../http/api-docs';

const tag = 'Auth';

const SignupFormSchema = z.object({
  ...SignupFieldsSchema.shape,
  thumbnail: z.string().meta({
    format: 'binary',
    description: 'Raster image (PNG, JPEG, GIF, WebP, BMP, AVIF), at most 100000 bytes',
  }),
  invitation: z.optional(z.string()).meta({ description: 'The token of an invitation link' }),
  setup: z
    .optional(z.string())
    .meta({ description: 'The token of the setup link the server logs while an install has no account' }),
});

export const authRouteDocs = describeRoutes([
  {
    method: 'POST',
    path: '/api/auth/signup',
    tag,
    summary: 'Create an account with a profile thumbnail and sign in',
    description:
      'Atomic: the account, the stored thumbnail (thumbnails/{uid}/{file name}), the profile (online) and the session are created together or not at all. Sets the session cookie. Rate-limited per client address.',
    caller: 'anyone',
    body: { contentType: 'multipart/form-data', schema: SignupFormSchema },
    response: { status: 201, description: 'Signed in', schema: AuthResultSchema },
    errors: [
      'forbidden',
      'not-found',
      'gone',
      'email-already-in-use',
      'conflict',
      'too-many-requests',
      'signup-failed',
    ],
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    tag,
    summary: 'Sign in with email and password; marks the profile online',
    description:
      'Rate-limited per client address, and failed logins per account (LOGIN_FAILURES_PER_ACCOUNT per 15 minutes, over every address and instance): past either, 429 with Retry-After.',
    caller: 'anyone',
    body: jsonBody(LoginSchema),
    response: {
      status: 200,
      description:
        'Signed in (sets the session cookie), or, when the account has a second step or the team requires one, `secondStep` with a 5-minute `flow` and no cookie (POST /api/auth/second-step)',
      schema: LoginResultSchema,
    },
    errors: ['wrong-credentials', 'forbidden', 'too-many-requests'],
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    tag,
    summary: 'End the session everywhere (all its tabs) and mark the user offline',
    caller: 'anyone',
    response: { status: 204, description: 'Signed out (also when there was no session)' },
    errors: ['forbidden'],
  },
  {
    method: 'POST',
    path: '/api/auth/token',
    tag,
    summary: 'Mint a fresh short-lived id token from the session cookie',
    description:
      'Only the session cookie mints: a request authenticated by an id token alone is refused (403), so a leaked token cannot renew itself.',
    caller: 'member',
    proof: 'session-cookie',
    response: { status: 200, description: 'A new id token', schema: IdTokenResultSchema },
    errors: ['forbidden'],
  },
  {
    method: 'GET',
    path: '/api/auth/session',
    tag,
    summary: 'The signed-in user, or null',
    caller: 'anyone',
    response: { status: 200, description: 'Current auth state', schema: SessionStateSchema },
  },
]);

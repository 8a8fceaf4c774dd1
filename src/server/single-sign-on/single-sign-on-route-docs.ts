import { z } from 'zod/mini';
import { SsoPolicySchema } from '../../common/single-sign-on';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { ProviderParamsSchema, StartQuerySchema } from './single-sign-on-routes';

const PolicyResultSchema = z.object({ policy: SsoPolicySchema });

export const singleSignOnRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/auth/oidc/{provider}/start',
    tag: 'Auth',
    summary: 'Starts signing in with an OpenID Connect provider (a browser navigation)',
    description:
      "Keeps state, nonce and PKCE verifier as a sign-in in progress (10 minutes, used once), sets the httpOnly `dojo_sso_flow` cookie that binds it to this browser, and redirects to the provider's authorization endpoint. `invitation` and `setup` ride along to the account a first sign-in makes. An unknown or unreachable provider redirects to `/login?sso_error=<reason>` instead.",
    caller: 'anyone',
    params: ProviderParamsSchema,
    query: StartQuerySchema,
    response: { status: 302, description: 'To the provider, or to the login page with `sso_error`' },
    errors: ['too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/auth/oidc/{provider}/callback',
    tag: 'Auth',
    summary: 'Where the provider sends the browser back (the redirect URL to register)',
    description:
      "Uses up the browser's sign-in in progress, has openid-client check state, nonce, PKCE and the ID token (signature, issuer, audience, expiry), links the identity to an account or makes one (decision 062), sets the session cookie and redirects to `/`. Every failure (denied consent, wrong state, a used or expired code, provider down, an unverified email for an existing account, the signup policy, a deactivated account) redirects to `/login?sso_error=<reason>` and changes nothing.",
    caller: 'anyone',
    params: ProviderParamsSchema,
    response: { status: 302, description: 'To the app, signed in; or to the login page with `sso_error`' },
    errors: ['too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/admin/sso-policy',
    tag: 'Team',
    summary: 'Whether single sign-on is required (admins)',
    caller: 'admin',
    response: { status: 200, description: 'The policy', schema: PolicyResultSchema },
  },
  {
    method: 'PUT',
    path: '/api/admin/sso-policy',
    tag: 'Team',
    summary: 'Requires single sign-on for everyone but admins, or stops requiring it (admins)',
    description:
      'While required, password login and signup answer 403 naming the providers, except for admins. 409 when no provider is configured.',
    caller: 'admin',
    body: jsonBody(SsoPolicySchema),
    response: { status: 200, description: 'The policy', schema: PolicyResultSchema },
    errors: ['conflict'],
  },
]);

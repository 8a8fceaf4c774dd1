/**
 * Single sign-on through OpenID Connect providers (docs/decisions/062-identity-and-account-linking.md,
 * docs/decisions/066-single-sign-on-configuration-and-errors.md): what the login, signup and admin screens
 * know of the providers, the admin's policy, and the reasons a provider sign-in lands back on the login
 * page. Imported by path (never through index.ts): only the screens that show it load it.
 */
import { z } from 'zod/mini';

/** A provider as the screens show it: its id (in the start URL) and its display name. */
const SsoProviderSchema = z.object({ id: z.string(), name: z.string() });
export type SsoProvider = z.infer<typeof SsoProviderSchema>;

/** What `/api/auth/options` adds for single sign-on. */
export const SsoOptionsSchema = z.object({
  /** The configured providers, in configuration order; empty when none is. */
  providers: z.array(SsoProviderSchema),
  /** Password login and signup are refused for everyone but admins. */
  ssoRequired: z.boolean(),
});
export type SsoOptions = z.infer<typeof SsoOptionsSchema>;

/** The API's own words about single sign-on (kept here, out of messages.ts and the first page's bundle). */
export const ssoMessages = {
  requiredNotBoolean: 'Say whether single sign-on is required (true or false).',
  noProvider:
    'Single sign-on cannot be required: no provider is configured (OIDC_PROVIDERS, see docs/deploy.md).',
} as const;

/** The admin's single sign-on policy (`PUT /api/admin/sso-policy`). */
export const SsoPolicySchema = z.object({
  required: z.boolean({ error: ssoMessages.requiredNotBoolean }),
});
export type SsoPolicy = z.infer<typeof SsoPolicySchema>;

/** Why a provider sign-in came back to the login page (`/login?sso_error=<code>`), and what the page says. */
export const SSO_ERROR_MESSAGES = {
  'unknown-provider': 'That sign-in provider is not configured here. Pick one of the buttons below.',
  denied: 'The sign-in was cancelled at the provider. Nothing was changed; you can try again.',
  'invalid-response':
    'The sign-in could not be completed: the answer from the provider did not check out (it may have been used already or have expired). Please try again.',
  expired: 'The sign-in took too long or was already used. Please start again.',
  'token-expired':
    "The provider's proof of sign-in had expired when it arrived (if this keeps happening, this server's clock may be wrong). Please try again.",
  'provider-unavailable':
    'The sign-in provider cannot be reached right now. Try again in a moment, or sign in another way.',
  'email-missing': 'The provider did not tell us your email address, so no account could be found or made.',
  'email-unverified':
    'An account with this email already exists, but the provider has not verified the address. Sign in with your password (or another way) instead.',
  'signup-refused':
    "No account exists for this email, and this team's sign-up policy does not admit it. Ask an admin for an invitation link.",
  'invitation-invalid':
    'The invitation link cannot be used: it may have expired, been used up or been revoked.',
  deactivated: 'This account has been deactivated. Ask an admin of this team to reactivate it.',
  failed: 'The sign-in could not be completed. Please try again.',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

export const isSsoErrorCode = (value: unknown): value is SsoErrorCode =>
  typeof value === 'string' && Object.hasOwn(SSO_ERROR_MESSAGES, value);

/** The button's words for a provider. */
export const signInWithLabel = (provider: SsoProvider): string => `Sign in with ${provider.name}`;

/** The message password login and signup answer with while single sign-on is required. */
export function ssoRequiredMessage(providerNames: readonly string[]): string {
  const names =
    providerNames.length <= 1
      ? (providerNames[0] ?? 'single sign-on')
      : `${providerNames.slice(0, -1).join(', ')} or ${providerNames.at(-1) ?? ''}`;
  return `This team signs in with single sign-on: use "Sign in with ${names}" on the login page.`;
}

/** Where a provider button leads: the server starts the redirect; invitation and setup links ride along. */
export function ssoStartPath(
  providerId: string,
  carry: { invitation?: string | undefined; setup?: string | undefined } = {},
): string {
  const query = new URLSearchParams();
  if (carry.invitation) query.set('invitation', carry.invitation);
  if (carry.setup) query.set('setup', carry.setup);
  const search = query.toString();
  return `/api/auth/oidc/${encodeURIComponent(providerId)}/start${search ? `?${search}` : ''}`;
}

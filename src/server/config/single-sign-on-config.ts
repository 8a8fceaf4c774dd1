/**
 * The OpenID Connect providers of `OIDC_PROVIDERS` and their `OIDC_<ID>_*` variables
 * (docs/decisions/066-single-sign-on-configuration-and-errors.md). Read from the environment object that
 * loadConfig is given, never from `process.env` itself; every problem is reported at start.
 */

export interface OidcProviderConfig {
  /** As in OIDC_PROVIDERS, lower-case: the redirect URL's `<PUBLIC_URL>/api/auth/oidc/<id>/callback`. */
  id: string;
  /** The button's "Sign in with <name>". */
  name: string;
  /** The issuer URL; its `/.well-known/openid-configuration` is read at the first sign-in. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Members of this group (in `groupsClaim`) become admins at each sign-in, others members; unset: no role change. */
  adminGroup: string | undefined;
  groupsClaim: string;
}

/** The variables each provider id has, for `.env.example` (`<ID>` stands for the id in capitals). */
export const OIDC_PROVIDER_ENV_DESCRIPTIONS = {
  ISSUER:
    'issuer URL (https://login.example.com/realms/team); discovery reads <issuer>/.well-known/openid-configuration',
  CLIENT_ID: 'the client id registered at the provider',
  CLIENT_SECRET: 'the client secret registered at the provider',
  NAME: "what the button says: 'Sign in with <NAME>' (default: the id)",
  ADMIN_GROUP:
    'members of this group become admins at each sign-in, others members (the last admin stays); unset: roles are left alone',
  GROUPS_CLAIM: 'the ID token or userinfo claim that lists the groups',
} as const;

const PROVIDER_ID = /^[a-z][a-z0-9]{0,31}$/;
const DEFAULT_GROUPS_CLAIM = 'groups';

/** The providers, or the list of every problem (each naming its variable). */
export function oidcProvidersOf(
  list: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  publicUrl: string | undefined,
): { providers: OidcProviderConfig[]; problems: string[] } {
  const ids = (list ?? '')
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter(Boolean);
  const problems: string[] = [];
  if (ids.length > 0 && publicUrl === undefined) {
    problems.push(
      'OIDC_PROVIDERS is set but PUBLIC_URL is not: the redirect URL registered at each provider is <PUBLIC_URL>/api/auth/oidc/<id>/callback',
    );
  }
  const seen = new Set<string>();
  const providers: OidcProviderConfig[] = [];
  for (const id of ids) {
    if (!PROVIDER_ID.test(id)) {
      problems.push(`OIDC_PROVIDERS: '${id}' is not an id (a letter, then letters or digits, at most 32)`);
      continue;
    }
    if (seen.has(id)) {
      problems.push(`OIDC_PROVIDERS: '${id}' is listed twice`);
      continue;
    }
    seen.add(id);
    const prefix = `OIDC_${id.toUpperCase()}_`;
    const read = (name: keyof typeof OIDC_PROVIDER_ENV_DESCRIPTIONS): string | undefined => {
      const value = env[prefix + name]?.trim();
      return value ? value : undefined;
    };
    const required = (name: 'ISSUER' | 'CLIENT_ID' | 'CLIENT_SECRET'): string => {
      const value = read(name);
      if (value === undefined)
        problems.push(`${prefix}${name}: required for the provider '${id}' in OIDC_PROVIDERS`);
      return value ?? '';
    };
    const issuer = required('ISSUER');
    if (issuer && !isAllowedIssuer(issuer)) {
      problems.push(
        `${prefix}ISSUER: must be an https URL (plain http only on this machine: 127.0.0.1, localhost)`,
      );
    }
    providers.push({
      id,
      name: read('NAME') ?? id,
      issuer,
      clientId: required('CLIENT_ID'),
      clientSecret: required('CLIENT_SECRET'),
      adminGroup: read('ADMIN_GROUP'),
      groupsClaim: read('GROUPS_CLAIM') ?? DEFAULT_GROUPS_CLAIM,
    });
  }
  return { providers, problems };
}

/** https; plain http only to a provider on this machine (a test's, a sidecar), never over a network. */
function isAllowedIssuer(value: string): boolean {
  try {
    const url = new URL(value);
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
  } catch {
    return false;
  }
}

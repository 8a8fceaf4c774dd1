import type * as OpenIdClientModule from 'openid-client';
import type { Configuration } from 'openid-client';
import type { SsoErrorCode, SsoProvider } from '../../common/single-sign-on';
import type { OidcProviderConfig } from '../config/single-sign-on-config';

type OpenIdClient = typeof OpenIdClientModule;

/** openid-client is loaded at the first sign-in: an idle server that never uses it keeps its memory budget. */
let openIdClient: Promise<OpenIdClient> | undefined;
const loadOpenIdClient = (): Promise<OpenIdClient> => (openIdClient ??= import('openid-client'));

/** Discovery, the token request and userinfo each give up after this long: a hung provider is a down one. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A provider sign-in that cannot go on, and the reason the login page shows (`/login?sso_error=`). */
export class SsoFailure extends Error {
  constructor(
    readonly reason: SsoErrorCode,
    detail?: string,
    options?: ErrorOptions,
  ) {
    super(detail ?? reason, options);
  }
}

/** What the browser must come back with: the provider's URL and the secrets the callback checks against. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims of a checked sign-in: the ID token's, completed by userinfo (the ID token wins where both say). */
export type ProviderClaims = Record<string, unknown> & { sub: string };

/**
 * The configured OpenID Connect providers. Each one's discovery document is read at its first use and kept
 * (a failed read is not kept: the next sign-in tries again). Every check of the answer (state, nonce, PKCE,
 * the ID token's signature, issuer, audience and expiry) is openid-client's, never ours.
 */
export class OidcProviders {
  private readonly configurations = new Map<string, Promise<Configuration>>();

  constructor(
    private readonly deps: {
      providers: readonly OidcProviderConfig[];
      publicUrl: string | undefined;
      clockToleranceSeconds: number;
    },
  ) {}

  list(): SsoProvider[] {
    return this.deps.providers.map(({ id, name }) => ({ id, name }));
  }

  find(id: string): OidcProviderConfig | undefined {
    return this.deps.providers.find((provider) => provider.id === id);
  }

  /** Registered at the provider; on PUBLIC_URL, never on a request's host (decision 043). */
  redirectUri(provider: OidcProviderConfig): string {
    return `${this.deps.publicUrl ?? ''}/api/auth/oidc/${provider.id}/callback`;
  }

  async authorizationRequest(provider: OidcProviderConfig): Promise<AuthorizationRequest> {
    const client = await loadOpenIdClient();
    const configuration = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const scopes = ['openid', 'email', 'profile'];
    // Keycloak, Authentik and others send groups only when asked for a scope of that name.
    if (provider.adminGroup && provider.groupsClaim === 'groups') scopes.push('groups');
    const supported = configuration.serverMetadata().scopes_supported;
    const scope = scopes.filter((name) => name === 'openid' || !supported || supported.includes(name));
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri(provider),
      scope: scope.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /**
   * Exchanges the callback's code and checks everything; throws `SsoFailure` saying why not. The callback's
   * URL is rebuilt on the registered redirect URL (the token request repeats it), never on the request's host.
   */
  async complete(
    provider: OidcProviderConfig,
    callbackQuery: URLSearchParams,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderClaims> {
    const client = await loadOpenIdClient();
    const configuration = await this.configuration(provider);
    const callbackUrl = new URL(this.redirectUri(provider));
    callbackUrl.search = callbackQuery.toString();
    try {
      const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new SsoFailure('invalid-response', 'no ID token');
      let userInfo: Record<string, unknown> = {};
      // Many providers put email and groups in userinfo only (the certified default for scope claims).
      if (configuration.serverMetadata().userinfo_endpoint && tokens.access_token) {
        userInfo = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
      }
      return { ...userInfo, ...idClaims };
    } catch (error) {
      throw failureOf(client, error);
    }
  }

  private async configuration(provider: OidcProviderConfig): Promise<Configuration> {
    let pending = this.configurations.get(provider.id);
    if (!pending) {
      pending = this.discover(provider);
      this.configurations.set(provider.id, pending);
      pending.catch(() => this.configurations.delete(provider.id));
    }
    try {
      return await pending;
    } catch (error) {
      throw new SsoFailure('provider-unavailable', `discovery of ${provider.issuer} failed`, {
        cause: error,
      });
    }
  }

  private async discover(provider: OidcProviderConfig): Promise<Configuration> {
    const client = await loadOpenIdClient();
    const issuer = new URL(provider.issuer);
    // Plain http only to a provider on this machine (a test's, or a proxy's sidecar): never over a network.
    const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
    const configuration = await client.discovery(
      issuer,
      provider.clientId,
      {
        client_secret: provider.clientSecret,
        [client.clockTolerance]: this.deps.clockToleranceSeconds,
      },
      undefined,
      { execute: insecure ? [client.allowInsecureRequests] : [], timeout: PROVIDER_TIMEOUT_SECONDS },
    );
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
    return configuration;
  }
}

/** What went wrong, in the login page's words: the provider said no, its answer did not check out, or it is away. */
function failureOf(client: OpenIdClient, error: unknown): SsoFailure {
  if (error instanceof SsoFailure) return error;
  if (error instanceof client.AuthorizationResponseError) {
    const reason = error.error === 'access_denied' ? 'denied' : 'invalid-response';
    return new SsoFailure(reason, `provider answered ${error.error}`, { cause: error });
  }
  if (error instanceof client.ResponseBodyError) {
    // invalid_grant: the code was used already or expired. 5xx: the provider is in trouble.
    const reason = error.status >= 500 ? 'provider-unavailable' : 'invalid-response';
    return new SsoFailure(reason, `token endpoint answered ${error.error}`, { cause: error });
  }
  if (error instanceof client.ClientError) {
    if (error.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
      return new SsoFailure('token-expired', error.message, { cause: error });
    }
    if (error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
      return new SsoFailure('provider-unavailable', error.message, { cause: error });
    }
    return new SsoFailure('invalid-response', `${error.code ?? ''} ${error.message}`, { cause: error });
  }
  // fetch failed (connection refused, DNS) or timed out.
  if (error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')) {
    return new SsoFailure('provider-unavailable', error.message, { cause: error });
  }
  return new SsoFailure('failed', error instanceof Error ? error.message : String(error), { cause: error });
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createNetServer } from 'node:net';
import Provider from 'oidc-provider';
import { pollUntil, WAIT_MS } from './poll';

/**
 * A real OpenID Provider in the test process: the certified `oidc-provider` package on 127.0.0.1, with
 * its development login and consent screens (any password; the login is the account id), a few accounts
 * and one client, The Dojo. Tests drive it over HTTP like a browser (`ProviderBrowser`), e2e tests with
 * Chromium. Nothing in it is mocked: discovery, keys, codes, tokens and userinfo are the package's own.
 */

interface ProviderAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  groups?: string[];
}

export interface TestProviderOptions {
  /** Account id (what is typed as the login) → its claims. */
  accounts: Record<string, ProviderAccount>;
  /** Where The Dojo expects the provider back: `<publicUrl>/api/auth/oidc/<id>/callback`. */
  redirectUris: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or changes an account (e.g. its groups) between sign-ins. */
  setAccount(id: string, account: ProviderAccount): void;
  /**
   * From now on (until turned off), ID tokens live one second and the token endpoint's answer waits until
   * the one in it has expired: the callback receives a token that was valid when made and is past its `exp`
   * when checked.
   */
  expireIdTokens(expire: boolean): void;
  stop(): Promise<void>;
}

const TEST_CLIENT_ID = 'the-dojo';
const TEST_CLIENT_SECRET = 'the-dojo-test-client-secret-0123456789';

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const accounts = new Map(Object.entries(options.accounts));
  let expireTokens = false;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) };
    },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    // Every lifetime named (the package asks for it); an hour unless a test expires ID tokens on purpose.
    ttl: {
      IdToken: () => (expireTokens ? 1 : 3600),
      AccessToken: 3600,
      AuthorizationCode: 600,
      Interaction: 3600,
      Session: 3600,
      Grant: 3600,
    },
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!expireTokens || ctx.path !== '/token') return;
    const idToken = (ctx.body as { id_token?: string } | undefined)?.id_token;
    if (!idToken) return;
    const { exp } = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as {
      exp: number;
    };
    // Waits on the clock passing exp (a condition, not a fixed time).
    await pollUntil(
      () => Date.now() / 1000 > exp,
      WAIT_MS,
      () => 'the ID token never expired',
    );
  });
  server.on('request', provider.callback());
  return {
    issuer,
    clientId: TEST_CLIENT_ID,
    clientSecret: TEST_CLIENT_SECRET,
    setAccount: (id, account) => accounts.set(id, account),
    expireIdTokens: (expire) => {
      expireTokens = expire;
    },
    stop: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** A port free right now, for a server whose public URL must be known before it starts (redirect URIs). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The environment variables that configure The Dojo for this provider under the id `providerId`. */
export function providerEnv(provider: TestProvider, providerId: string, extra: Record<string, string> = {}) {
  const prefix = `OIDC_${providerId.toUpperCase()}_`;
  return {
    OIDC_PROVIDERS: providerId,
    [`${prefix}ISSUER`]: provider.issuer,
    [`${prefix}CLIENT_ID`]: provider.clientId,
    [`${prefix}CLIENT_SECRET`]: provider.clientSecret,
    ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [`${prefix}${name}`, value])),
  };
}

/**
 * A browser as far as a sign-in needs: a cookie jar per origin and manual redirects, so a test sees every
 * hop, fills the provider's login and consent forms, and decides what to do with the callback URL.
 */
export class ProviderBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  /** GET with this browser's cookies, not following redirects. */
  async get(url: string | URL): Promise<Response> {
    return this.send(new URL(url), { method: 'GET' });
  }

  /**
   * From a URL that leads to the provider (The Dojo's start), through the provider's login (as `login`) and
   * consent (accepted, or cancelled with `deny`), up to the first redirect back to The Dojo (the origin of
   * `callbackPrefix`): the callback, or the login page when the start was refused; returned, not followed.
   */
  async signInAtProvider(
    startUrl: string,
    { login, callbackPrefix, deny = false }: { login: string; callbackPrefix: string; deny?: boolean },
  ): Promise<URL> {
    let url = new URL(startUrl);
    let response = await this.get(url);
    for (let hops = 0; hops < 20; hops += 1) {
      if (response.status >= 300 && response.status < 400) {
        const next = new URL(response.headers.get('location') ?? '', url);
        // Back at The Dojo: the callback, or its login page when the start itself was refused.
        if (next.origin === new URL(callbackPrefix).origin) return next;
        url = next;
        response = await this.get(url);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200)
        throw new Error(`provider answered ${response.status}: ${html.slice(0, 300)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
      if (prompt === 'consent' && deny) {
        const abort = /<a href="([^"]*\/abort)"/.exec(html)?.[1];
        if (!abort) throw new Error('no cancel link on the consent page');
        url = new URL(decodeHtml(abort), url);
        response = await this.get(url);
        continue;
      }
      const form = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        form.set('login', login);
        form.set('password', 'any password');
      }
      url = new URL(decodeHtml(action), url);
      response = await this.send(url, {
        method: 'POST',
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    }
    throw new Error('too many hops at the provider');
  }

  /** The cookie `name` this browser holds for `origin`. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(new URL(origin).origin)?.get(name);
  }

  /** A raw `Cookie` header of everything held for `origin` (to hand a signed-in session to an SDK client). */
  cookieHeader(origin: string): string {
    return [...(this.jars.get(new URL(origin).origin) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  }

  private async send(url: URL, init: RequestInit): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(url.href);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    const jar = this.jars.get(url.origin) ?? new Map<string, string>();
    this.jars.set(url.origin, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=').map((part) => part.trim());
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(setting) <= Date.now();
        return false;
      });
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
}

const decodeHtml = (text: string): string =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/g, '/')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sniffRasterImage } from '../../common';
import { SSO_ERROR_MESSAGES, type SsoErrorCode } from '../../common/single-sign-on';
import { makePng, postJson, postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import {
  freePort,
  ProviderBrowser,
  providerEnv,
  startTestProvider,
  type TestProvider,
} from '../../../test/support/oidc-provider';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { oidcProvidersOf } from '../config/single-sign-on-config';

/**
 * Single sign-on against a real OpenID Provider (oidc-provider, in this process): the whole browser round
 * trip, decision 062's linking rules, the signup policy, "Require single sign-on", the admin group, and
 * every way a sign-in fails landing on the login page with nothing created.
 */

const PASSWORD = 'correct horse battery';
const ADMIN_GROUP = 'dojo-admins';
/** A provider configured but never running: its discovery fails. */
const DOWN = 'down';

let provider: TestProvider;
let server: TestServer;
let pictures: Server;
let pictureUrl: string;
let callbackPrefix: string;
let ownerCookie: string;
let ownerEmail: string;
const picturePng = makePng(2048);

beforeAll(async () => {
  pictures = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    response.end(picturePng);
  });
  await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
  pictureUrl = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}/face.png`;

  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  callbackPrefix = `${publicUrl}/api/auth/oidc/corp/callback`;
  provider = await startTestProvider({ accounts: {}, redirectUris: [callbackPrefix] });
  const env = {
    ...providerEnv(provider, 'corp', { NAME: 'Corp ID', ADMIN_GROUP }),
    OIDC_PROVIDERS: `corp,${DOWN}`,
    OIDC_DOWN_ISSUER: `http://127.0.0.1:${await freePort()}`,
    OIDC_DOWN_CLIENT_ID: 'x',
    OIDC_DOWN_CLIENT_SECRET: 'y',
  };
  const { providers, problems } = oidcProvidersOf(env.OIDC_PROVIDERS, env, publicUrl);
  expect(problems).toEqual([]);
  server = await startTestServer({
    configOverrides: {
      port,
      publicUrl,
      oidcProviders: providers,
      oidcClockToleranceSeconds: 0,
      // The test provider's pictures are served from this machine.
      outboundAllowPrivate: true,
    },
  });
  // The install's first account: its owner and only admin, with a password.
  ownerEmail = uniqueEmail('owner');
  const signup = await postSignup(server.url, { email: ownerEmail, displayName: 'Owner' });
  expect(signup.status).toBe(201);
  ownerCookie = sessionCookieOf(signup);
});

afterAll(async () => {
  await server?.stop();
  await provider?.stop();
  await new Promise((resolve) => pictures?.close(resolve));
});

interface SessionUser {
  uid: string;
  email: string;
  displayName: string;
  photoURL: string;
  role: string;
}

/** A fresh browser through the whole round trip: where it lands at The Dojo, and who it is signed in as. */
async function signIn(
  login: string,
  options: { deny?: boolean; query?: string; browser?: ProviderBrowser } = {},
): Promise<{ browser: ProviderBrowser; landedOn: URL; user: SessionUser | null }> {
  const browser = options.browser ?? new ProviderBrowser();
  const back = await browser.signInAtProvider(
    `${server.url}/api/auth/oidc/corp/start${options.query ?? ''}`,
    {
      login,
      callbackPrefix,
      deny: options.deny ?? false,
    },
  );
  const landedOn = back.href.startsWith(callbackPrefix) ? await landAfter(browser, back) : back;
  return { browser, landedOn, user: await sessionUser(browser) };
}

async function landAfter(browser: ProviderBrowser, callback: URL): Promise<URL> {
  const response = await browser.get(callback);
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '', callback);
}

async function sessionUser(browser: ProviderBrowser): Promise<SessionUser | null> {
  const response = await browser.get(`${server.url}/api/auth/session`);
  return ((await response.json()) as { user: SessionUser | null }).user;
}

async function adminRequest(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { cookie: ownerCookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function membersNamed(email: string): Promise<{ id: string; role: string; status: string }[]> {
  const response = await adminRequest('GET', `/api/admin/members?search=${encodeURIComponent(email)}`);
  return ((await response.json()) as { members: { id: string; role: string; status: string }[] }).members;
}

async function passwordLogin(email: string, password = PASSWORD): Promise<Response> {
  return postJson(server.url, '/api/auth/login', { email, password });
}

function expectRefusal(landedOn: URL, reason: SsoErrorCode): void {
  expect(landedOn.pathname).toBe('/login');
  expect(landedOn.searchParams.get('sso_error')).toBe(reason);
  expect(SSO_ERROR_MESSAGES[reason]).toBeTruthy();
}

describe('the last admin', () => {
  it('keeps the admin role when signing in through the provider outside the admin group', async () => {
    provider.setAccount('owner', { email: ownerEmail, email_verified: true, name: 'Owner', groups: [] });
    const { landedOn, user } = await signIn('owner');
    expect(landedOn.pathname).toBe('/');
    expect(user?.email).toBe(ownerEmail);
    expect(user?.role).toBe('admin');
  });
});

describe('a first sign-in', () => {
  it('creates an account from the claims, with the provider picture and no password', async () => {
    const email = uniqueEmail('fresh');
    provider.setAccount('fresh', { email, email_verified: true, name: 'Fresh Face', picture: pictureUrl });
    const { landedOn, user } = await signIn('fresh');
    expect(landedOn.href).toBe(`${server.url}/`);
    expect(user).toMatchObject({ email, displayName: 'Fresh Face', role: 'member' });
    const picture = await fetch(new URL(user?.photoURL ?? '', server.url));
    expect(Buffer.from(await picture.arrayBuffer())).toEqual(picturePng);
    // No password exists to guess: password login is refused like a wrong password.
    expect((await passwordLogin(email, '')).status).toBe(400);
    expect((await passwordLogin(email, 'any password at all')).status).toBe(401);

    // The same identity signs in to the same account, not a second one.
    const again = await signIn('fresh');
    expect(again.user?.uid).toBe(user?.uid);
    expect(await membersNamed(email)).toHaveLength(1);
  });

  it('draws a generated avatar when the provider has no picture, and makes the name unique', async () => {
    const email = uniqueEmail('noface');
    provider.setAccount('noface', { email, email_verified: true, name: 'Owner' });
    const { user } = await signIn('noface');
    expect(user?.displayName).toBe('Owner (2)');
    const picture = await fetch(new URL(user?.photoURL ?? '', server.url));
    const bytes = new Uint8Array(await picture.arrayBuffer());
    expect(sniffRasterImage(bytes.subarray(0, 32))).toBe('image/png');
  });
});

describe('linking to an existing account', () => {
  it('links a verified email to the password account with that email', async () => {
    const email = uniqueEmail('linked');
    const signup = await postSignup(server.url, { email, displayName: `Linked ${Date.now()}` });
    const uid = ((await signup.json()) as { user: { uid: string } }).user.uid;
    provider.setAccount('linked', { email: email.toUpperCase(), email_verified: true, name: 'Someone Else' });
    const { user } = await signIn('linked');
    expect(user?.uid).toBe(uid);
    expect(await membersNamed(email)).toHaveLength(1);
  });

  it('refuses an unverified email that belongs to an account, and writes nothing', async () => {
    const email = uniqueEmail('taken');
    await postSignup(server.url, { email });
    provider.setAccount('squatter', { email, email_verified: false, name: 'Squatter' });
    const { landedOn, user } = await signIn('squatter');
    expectRefusal(landedOn, 'email-unverified');
    expect(user).toBeNull();
    // Still not linked: the next sign-in is refused the same way.
    expectRefusal((await signIn('squatter')).landedOn, 'email-unverified');
  });

  it('starts afresh once the linked account was deleted', async () => {
    const email = uniqueEmail('gone');
    const signup = await postSignup(server.url, { email, displayName: `Gone ${Date.now()}` });
    const { uid } = ((await signup.json()) as { user: { uid: string } }).user;
    provider.setAccount('gone', { email, email_verified: true, name: `Back ${Date.now()}` });
    expect((await signIn('gone')).user?.uid).toBe(uid);
    const deleted = await postJson(
      server.url,
      '/api/account/delete',
      { password: PASSWORD },
      { cookie: sessionCookieOf(signup) },
    );
    expect(deleted.status).toBe(204);
    const { user } = await signIn('gone');
    expect(user?.email).toBe(email);
    expect(user?.uid).not.toBe(uid);
  });

  it('refuses a deactivated account', async () => {
    const email = uniqueEmail('leaver');
    provider.setAccount('leaver', { email, email_verified: true, name: `Leaver ${Date.now()}` });
    const { user } = await signIn('leaver');
    expect((await adminRequest('POST', `/api/admin/members/${user?.uid}/deactivate`)).status).toBe(200);
    const { landedOn, user: after } = await signIn('leaver');
    expectRefusal(landedOn, 'deactivated');
    expect(after).toBeNull();
  });
});

describe('the signup policy', () => {
  afterAll(async () => {
    await adminRequest('PUT', '/api/admin/signup-policy', { mode: 'open' });
  });

  it('refuses a new account without an invitation under invitation only, and makes one with it', async () => {
    expect((await adminRequest('PUT', '/api/admin/signup-policy', { mode: 'invitation' })).status).toBe(200);
    const email = uniqueEmail('invitee');
    provider.setAccount('invitee', { email, email_verified: true, name: `Invitee ${Date.now()}` });
    const refused = await signIn('invitee');
    expectRefusal(refused.landedOn, 'signup-refused');
    expect(await membersNamed(email)).toHaveLength(0);

    const created = await adminRequest('POST', '/api/admin/invitations', { maxUses: 1 });
    const token = new URL(((await created.json()) as { url: string }).url, server.url).searchParams.get(
      'invitation',
    );
    const { landedOn, user } = await signIn('invitee', { query: `?invitation=${token}` });
    expect(landedOn.pathname).toBe('/');
    expect(user?.email).toBe(email);
    // The invitation is used up.
    const check = await fetch(`${server.url}/api/invitations/${token}`);
    expect(check.status).toBe(410);
  });

  it('refuses an invitation bound to an email when the provider has not verified it', async () => {
    const email = uniqueEmail('bound');
    const created = await adminRequest('POST', '/api/admin/invitations', { maxUses: 1, email });
    const token = new URL(((await created.json()) as { url: string }).url, server.url).searchParams.get(
      'invitation',
    );
    provider.setAccount('bound', { email, email_verified: false, name: `Bound ${Date.now()}` });
    const { landedOn } = await signIn('bound', { query: `?invitation=${token}` });
    expectRefusal(landedOn, 'invitation-invalid');
    expect(await membersNamed(email)).toHaveLength(0);
  });
});

describe('single sign-on required', () => {
  afterAll(async () => {
    await adminRequest('PUT', '/api/admin/sso-policy', { required: false });
  });

  it('is an admin decision', async () => {
    const member = await postSignup(server.url, {});
    const cookie = sessionCookieOf(member);
    const response = await fetch(`${server.url}/api/admin/sso-policy`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ required: true }),
    });
    expect(response.status).toBe(403);
  });

  it('refuses password login and signup to everyone but admins, naming the providers', async () => {
    const member = uniqueEmail('member');
    expect((await postSignup(server.url, { email: member })).status).toBe(201);
    const turnedOn = await adminRequest('PUT', '/api/admin/sso-policy', { required: true });
    expect(await turnedOn.json()).toEqual({ policy: { required: true } });

    const login = await passwordLogin(member);
    expect(login.status).toBe(403);
    const message = ((await login.json()) as { error: { message: string } }).error.message;
    expect(message).toContain('Corp ID');
    expect((await postSignup(server.url, {})).status).toBe(403);
    // Admins keep their password: a provider outage cannot lock the team out.
    expect((await passwordLogin(ownerEmail)).status).toBe(200);

    const options = (await (await fetch(`${server.url}/api/auth/options`)).json()) as Record<string, unknown>;
    expect(options).toMatchObject({
      ssoRequired: true,
      providers: [
        { id: 'corp', name: 'Corp ID' },
        { id: DOWN, name: DOWN },
      ],
    });
  });
});

describe('the admin group', () => {
  it('makes members of the group admins at each sign-in, and members again when they leave it', async () => {
    const email = uniqueEmail('boss');
    provider.setAccount('boss', {
      email,
      email_verified: true,
      name: `Boss ${Date.now()}`,
      groups: [ADMIN_GROUP],
    });
    expect((await signIn('boss')).user?.role).toBe('admin');
    provider.setAccount('boss', { email, email_verified: true, name: 'Boss', groups: ['staff'] });
    expect((await signIn('boss')).user?.role).toBe('member');
    expect((await membersNamed(email))[0]?.role).toBe('member');
  });
});

describe('failures land on the login page and create nothing', () => {
  it('denied consent', async () => {
    const email = uniqueEmail('shy');
    provider.setAccount('shy', { email, email_verified: true, name: 'Shy' });
    const { landedOn, user } = await signIn('shy', { deny: true });
    expectRefusal(landedOn, 'denied');
    expect(user).toBeNull();
    expect(await membersNamed(email)).toHaveLength(0);
  });

  it('a tampered state', async () => {
    const email = uniqueEmail('tamper');
    provider.setAccount('tamper', { email, email_verified: true, name: 'Tamper' });
    const browser = new ProviderBrowser();
    const callback = await browser.signInAtProvider(`${server.url}/api/auth/oidc/corp/start`, {
      login: 'tamper',
      callbackPrefix,
    });
    callback.searchParams.set('state', 'forged-state-value');
    expectRefusal(await landAfter(browser, callback), 'invalid-response');
    expect(await sessionUser(browser)).toBeNull();
    expect(await membersNamed(email)).toHaveLength(0);
  });

  it('a replayed callback (the same code and state twice)', async () => {
    const email = uniqueEmail('replay');
    provider.setAccount('replay', { email, email_verified: true, name: `Replay ${Date.now()}` });
    const browser = new ProviderBrowser();
    const callback = await browser.signInAtProvider(`${server.url}/api/auth/oidc/corp/start`, {
      login: 'replay',
      callbackPrefix,
    });
    const flowCookie = `dojo_sso_flow=${browser.cookie(server.url, 'dojo_sso_flow')}`;
    expect((await landAfter(browser, callback)).pathname).toBe('/');
    // Someone who copied both the URL and the flow cookie gets nothing: the sign-in was used up.
    const replay = await fetch(callback, { headers: { cookie: flowCookie }, redirect: 'manual' });
    expect(replay.headers.get('location')).toBe('/login?sso_error=expired');
    expect(replay.headers.getSetCookie().some((line) => line.startsWith('dojo_session='))).toBe(false);
  });

  it('an expired ID token', async () => {
    const email = uniqueEmail('late');
    provider.setAccount('late', { email, email_verified: true, name: 'Late' });
    provider.expireIdTokens(true);
    try {
      const { landedOn, user } = await signIn('late');
      expectRefusal(landedOn, 'token-expired');
      expect(user).toBeNull();
    } finally {
      provider.expireIdTokens(false);
    }
    expect(await membersNamed(email)).toHaveLength(0);
  });

  it('a provider that is down', async () => {
    const response = await fetch(`${server.url}/api/auth/oidc/${DOWN}/start`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login?sso_error=provider-unavailable');
  });

  it('an unknown provider, and a callback nobody started', async () => {
    const unknown = await fetch(`${server.url}/api/auth/oidc/nope/start`, { redirect: 'manual' });
    expect(unknown.headers.get('location')).toBe('/login?sso_error=unknown-provider');
    const stray = await fetch(`${callbackPrefix}?code=abc&state=def`, { redirect: 'manual' });
    expect(stray.headers.get('location')).toBe('/login?sso_error=expired');
  });
});

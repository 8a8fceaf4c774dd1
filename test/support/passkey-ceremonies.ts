import { expect } from 'vitest';
import type { ErrorBody } from '../../src/common';
import type { Passkey } from '../../src/common/passkeys';
import type { SignedInClient } from './clients';
import { requestWithForgedHost } from './forged-host';
import type { CreationOptions, RequestOptions, SoftwareAuthenticator } from './software-authenticator';

/**
 * Passkey ceremonies over HTTP as the web client runs them (options, the authenticator, the answer), with
 * the Origin a page would send and, for an attacker's client, any Host.
 */

interface TestServerLike {
  url: string;
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  cookie: string | undefined;
}

/** One request as a browser page would send it: its Origin, and the Host it reached (forgeable). */
export async function send<T = unknown>(
  server: TestServerLike,
  method: string,
  path: string,
  options: {
    json?: unknown;
    cookie?: string;
    origin?: string;
    host?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  if (options.host) headers.host = options.host;
  const answer = await requestWithForgedHost(`${server.url}${path}`, {
    method,
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const setCookie = [answer.headers['set-cookie'] ?? []]
    .flat()
    .find((line) => line.startsWith('dojo_session='));
  return {
    status: answer.status,
    body: (answer.body ? JSON.parse(answer.body) : undefined) as T,
    cookie: setCookie?.split(';')[0],
  };
}

export const cookieOf = (member: SignedInClient): string => member.client.transport.cookieHeader() ?? '';
export const messageOf = (answer: Answer): string => (answer.body as ErrorBody).error.message;

export interface Ceremony<Options> {
  flow: string;
  options: Options;
}

/** Adds a passkey made by `authenticator` to `member`'s account, as the settings screen does. */
export async function addPasskey(
  server: TestServerLike,
  member: SignedInClient,
  authenticator: SoftwareAuthenticator,
  origin: string,
  name = 'Test key',
): Promise<Passkey> {
  const cookie = cookieOf(member);
  const started = await send<Ceremony<CreationOptions>>(server, 'POST', '/api/account/passkeys/options', {
    cookie,
    origin,
  });
  expect(started.status).toBe(200);
  const response = authenticator.register(started.body.options, origin);
  const added = await send<{ passkey: Passkey }>(server, 'POST', '/api/account/passkeys', {
    cookie,
    origin,
    json: { flow: started.body.flow, name, response },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body.passkey;
}

/** A passkey sign-in's options, as the login page asks for them. */
export async function signInOptions(
  server: TestServerLike,
  origin: string,
): Promise<Ceremony<RequestOptions>> {
  const started = await send<Ceremony<RequestOptions>>(server, 'POST', '/api/auth/passkey/options', {
    origin,
  });
  expect(started.status).toBe(200);
  return started.body;
}

/** Signs in with the authenticator's passkey alone; the answer carries the session cookie when it worked. */
export async function signInWith(
  server: TestServerLike,
  authenticator: SoftwareAuthenticator,
  origin: string,
  choice: { credentialId?: string; counter?: number } = {},
): Promise<Answer<{ user: { uid: string } }>> {
  const { flow, options } = await signInOptions(server, origin);
  const response = authenticator.assert(options, origin, choice);
  return send(server, 'POST', '/api/auth/passkey', { origin, json: { flow, response } });
}

export async function sessionUserOf(server: TestServerLike, cookie: string): Promise<string | null> {
  const answer = await send<{ user: { uid: string } | null }>(server, 'GET', '/api/auth/session', { cookie });
  return answer.body.user?.uid ?? null;
}

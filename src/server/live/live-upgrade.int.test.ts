import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { messages, type LiveServerMessage } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';
import { pollUntil, WAIT_MS } from '../../../test/support/poll';

let server: TestServer;
let cookie: string;
let uid: string;

beforeAll(async () => {
  server = await startTestServer();
  const signup = await postSignup(server.url, { email: uniqueEmail('upgrade'), displayName: 'upgrade' });
  expect(signup.status).toBe(201);
  cookie = sessionCookieOf(signup);
  uid = ((await signup.json()) as { user: { uid: string } }).user.uid;
});
afterAll(async () => {
  await server.stop();
});

const wsUrl = (path = '/live') => `${server.url.replace(/^http/, 'ws')}${path}`;

/** A socket that records every server message, opened with the given handshake headers. */
async function openLive(headers: Record<string, string>) {
  const socket = new WebSocket(wsUrl(), { headers });
  const received: LiveServerMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(String(data)) as LiveServerMessage));
  await once(socket, 'open');
  const until = async (predicate: (message: LiveServerMessage) => boolean): Promise<LiveServerMessage> => {
    await pollUntil(
      () => received.some(predicate),
      WAIT_MS,
      () => `no such message; got ${JSON.stringify(received)}`,
    );
    return received.find(predicate)!;
  };
  return { socket, received, until };
}

/** The status and JSON body of a refused upgrade. */
function refusal(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), { headers });
    socket.on('unexpected-response', (_request, response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
      });
    });
    socket.on('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.on('error', reject);
  });
}

describe('the /live upgrade', () => {
  it('refuses a request without a session with a 401 in the API error shape', async () => {
    expect(await refusal('/live')).toEqual({
      status: 401,
      body: { error: { code: 'unauthenticated', message: messages.notSignedIn } },
    });
  });

  it('refuses the session cookie when the page is on another site (cross-site WebSocket hijacking)', async () => {
    const refused = await refusal('/live', { cookie, origin: 'https://attacker.example' });
    expect(refused.status).toBe(401);
    const { socket, until } = await openLive({ cookie, origin: server.url });
    expect(await until((message) => message.type === 'welcome')).toEqual({ type: 'welcome', uid });
    socket.close();
  });

  it('accepts an id token in Authorization instead of the cookie', async () => {
    const minted = await fetch(`${server.url}/api/auth/token`, { method: 'POST', headers: { cookie } });
    const { idToken } = (await minted.json()) as { idToken: string };
    const { socket, until } = await openLive({ authorization: `Bearer ${idToken}` });
    expect(await until((message) => message.type === 'welcome')).toEqual({ type: 'welcome', uid });
    socket.close();
    expect((await refusal('/live', { authorization: 'Bearer not-a-token' })).status).toBe(401);
  });

  it('answers an upgrade on any other path with 404', async () => {
    const refused = await refusal('/api/users', { cookie });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: { code: 'not-found' } });
  });

  it('ends only the socket that sends an oversized message; other tabs of the session keep working', async () => {
    const first = await openLive({ cookie });
    const second = await openLive({ cookie });
    const closed = once(first.socket, 'close');
    first.socket.send('x'.repeat(65 * 1024));
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);

    second.socket.send(
      JSON.stringify({ type: 'subscribe', id: 'me', target: { collection: 'users', kind: 'doc', id: uid } }),
    );
    const snapshot = await second.until((message) => message.type === 'snapshot');
    expect(snapshot).toMatchObject({ type: 'snapshot', id: 'me', docs: [{ id: uid, online: true }] });
    second.socket.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LIVE_CLOSE_CODES, messages, type LiveServerMessage } from '../../common';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { postJson, postSignup, sessionCookieOf, uniqueEmail } from '../../../test/support/fixtures';

/** A raw live socket that records what the server sends and how it closes. */
class RawLive {
  readonly received: LiveServerMessage[] = [];
  closed: { code: number; reason: string } | undefined;
  readonly socket: WebSocket;

  constructor(baseUrl: string, cookie: string) {
    this.socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: { cookie } });
    this.socket.on('message', (data) => this.received.push(JSON.parse(String(data)) as LiveServerMessage));
    this.socket.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) };
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async welcomed(): Promise<void> {
    await expect
      .poll(() => this.received.some((message) => message.type === 'welcome') || this.closed !== undefined)
      .toBe(true);
    expect(this.closed).toBeUndefined();
  }

  async refused(): Promise<void> {
    await expect.poll(() => this.closed?.code, { timeout: 5000 }).toBe(LIVE_CLOSE_CODES.tooManySockets);
    expect(this.closed?.reason).toBe('too many live connections');
    expect(this.received).toEqual([
      { type: 'error', code: 'too-many-requests', message: messages.tooManyLiveConnections },
    ]);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.socket.once('close', () => resolve()));
    this.socket.close();
    return closed;
  }
}

const users = (id: string) => ({
  type: 'subscribe',
  id,
  target: { kind: 'query', collection: 'users', where: [{ field: 'id', op: '==', value: id }] },
});

let server: TestServer;
const mario = { email: uniqueEmail('mario'), password: 'correct horse battery' };
/** A session made by a raw signup: no SDK client holds a socket of it behind the test's back. */
let marioCookie: string;
const sockets: RawLive[] = [];
const open = (cookie: string): RawLive => {
  const socket = new RawLive(server.url, cookie);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  server = await startTestServer({
    configOverrides: {
      liveMaxSubscriptionsPerSocket: 3,
      liveMaxSocketsPerSession: 2,
      liveMaxSocketsPerUser: 3,
    },
  });
  const signup = await postSignup(server.url, mario);
  expect(signup.status).toBe(201);
  marioCookie = sessionCookieOf(signup);
});
afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await server.stop();
});

describe('live caps', () => {
  it('refuses a session its socket past the cap with close code 4008, and takes one again once a slot frees', async () => {
    const first = open(marioCookie);
    const second = open(marioCookie);
    await Promise.all([first.welcomed(), second.welcomed()]);
    const third = open(marioCookie);
    await third.refused();

    await first.close();
    const again = open(marioCookie);
    await again.welcomed();
    await Promise.all([second.close(), again.close()]);
  });

  it('counts every session of a user against the per-user cap', async () => {
    const login = await postJson(server.url, '/api/auth/login', {
      email: mario.email,
      password: mario.password,
    });
    expect(login.status).toBe(200);
    const otherSession = sessionCookieOf(login);
    const held = [open(marioCookie), open(marioCookie), open(otherSession)];
    await Promise.all(held.map((socket) => socket.welcomed()));
    // The other session holds one socket of its two, but the user holds three of three.
    await open(otherSession).refused();
    await Promise.all(held.map((socket) => socket.close()));
  });

  it('refuses a subscription past the per-socket cap with an error naming it, and frees slots on unsubscribe', async () => {
    const live = open(marioCookie);
    await live.welcomed();
    const snapshots = (id: string) =>
      live.received.filter((message) => message.type === 'snapshot' && message.id === id).length;
    for (const id of ['a', 'b', 'c']) live.send(users(id));
    await expect.poll(() => snapshots('a') + snapshots('b') + snapshots('c')).toBe(3);
    // Subscribing again with a held id replaces that subscription: not one more.
    live.send(users('a'));
    await expect.poll(() => snapshots('a')).toBe(2);

    live.send(users('d'));
    await expect
      .poll(() => live.received.find((message) => message.type === 'error'))
      .toEqual({
        type: 'error',
        id: 'd',
        code: 'too-many-requests',
        message: messages.tooManySubscriptions,
      });
    expect(live.closed).toBeUndefined();

    live.send({ type: 'unsubscribe', id: 'b' });
    live.send(users('d'));
    await expect.poll(() => snapshots('d')).toBe(1);
    await live.close();
  });
});

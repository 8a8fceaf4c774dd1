import http from 'node:http';
import { WebSocket } from 'ws';
import { dashboardQuery, LIVE_PATH, type DashboardFilter, type LiveTarget } from '../../src/common';
import { avatarPng, displayNameFor } from './data';
import pMap from 'p-map';
import { nowMs } from './stats';

/**
 * Bench clients talk to the server as any API client does: signup/login over HTTP, the session cookie on
 * every later request and on the live socket upgrade. Raw HTTP and raw `ws` keep the client's own work
 * (and so its share of the 2 cores) small and predictable.
 */
export interface Session {
  uid: string;
  email: string;
  /** `dojo_session=…`, ready for a Cookie header. */
  cookie: string;
  /** The id token from signup/login (for `Authorization: Firebase …` on the storage API). */
  idToken: string;
}

export const BENCH_PASSWORD = 'correct horse battery staple';

/** Keep-alive agent: benchmarks measure the server, not TCP handshakes. */
const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface HttpResult {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export function httpRequest(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    /** Give up (reject) when the socket is idle this long; unset waits for ever. */
    timeoutMs?: number;
    /** Defaults to `keepAliveAgent`. */
    agent?: http.Agent;
  } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent ?? keepAliveAgent,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks),
            headers: response.headers,
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    if (options.timeoutMs !== undefined) {
      request.setTimeout(options.timeoutMs, () => request.destroy(new Error('request timed out')));
    }
    request.end(body);
  });
}

/** JSON request with the session cookie; throws on an unexpected status. */
export async function api<T>(
  baseUrl: string,
  session: Pick<Session, 'cookie'> | undefined,
  method: string,
  path: string,
  body?: unknown,
  expect: number[] = [200, 201, 204],
): Promise<T> {
  const headers: Record<string, string> = session ? { cookie: session.cookie } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  const result = await httpRequest(`${baseUrl}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!expect.includes(result.status)) {
    throw new Error(`${method} ${path} → ${result.status}: ${result.body.toString().slice(0, 300)}`);
  }
  return (result.body.length > 0 ? JSON.parse(result.body.toString()) : undefined) as T;
}

function sessionFrom(
  response: Response,
  email: string,
  json: { user: { uid: string }; idToken: string },
): Session {
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0] ?? '')
    .find((pair) => pair.startsWith('dojo_session='));
  if (!cookie) throw new Error('no session cookie in the answer');
  return { uid: json.user.uid, email, cookie, idToken: json.idToken };
}

/**
 * Display names are unique per server: every signup of this process takes the next name, starting far
 * above the seeder's (which names its users `displayNameFor(0…)`), so the two never meet on one server.
 */
let nextNameIndex = 1_000_000;

/** Multipart signup with a real PNG thumbnail, as the web app sends it. */
async function signUp(baseUrl: string, email: string, index: number): Promise<Session> {
  const form = new FormData();
  form.set('email', email);
  form.set('password', BENCH_PASSWORD);
  form.set('displayName', displayNameFor((nextNameIndex += 1)));
  form.set('thumbnail', new Blob([new Uint8Array(avatarPng(index))], { type: 'image/png' }), 'avatar.png');
  const response = await fetch(`${baseUrl}/api/auth/signup`, { method: 'POST', body: form });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`signup → ${response.status}: ${text.slice(0, 300)}`);
  return sessionFrom(response, email, JSON.parse(text) as { user: { uid: string }; idToken: string });
}

export async function logIn(baseUrl: string, email: string, password: string): Promise<Session> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`login → ${response.status}: ${text.slice(0, 300)}`);
  return sessionFrom(response, email, JSON.parse(text) as { user: { uid: string }; idToken: string });
}

let signupCounter = 0;

/** `count` new users, each signed up through the API (scrypt makes each take tens of ms). */
export async function signUpMany(baseUrl: string, count: number, label: string): Promise<Session[]> {
  const sessions: Session[] = new Array<Session>(count);
  const run = `${Date.now().toString(36)}${(signupCounter += 1)}`;
  await pMap(
    new Array(count).keys(),
    async (index) => {
      sessions[index] = await signUp(baseUrl, `bench.${label}.${run}.${index}@example.com`, index);
    },
    { concurrency: 4 },
  );
  return sessions;
}

// --- live sockets ---------------------------------------------------------------------------------------

export interface LiveSocket {
  socket: WebSocket;
  /** Resolves with the ms from `subscribe` to the snapshot. */
  subscribe(id: string, target: LiveTarget): Promise<{ ms: number; docs: number; bytes: number }>;
  close(): void;
}

/** Every server message is an object whose first member is its type: `{"type":"snapshot",…`. */
const TYPE_OFFSET = '{"type":"'.length;

/** Opens `/live` with the session cookie; resolves once the server's welcome arrived. */
export function openLive(
  baseUrl: string,
  session: Pick<Session, 'cookie'>,
  timeoutMs = 30_000,
): Promise<LiveSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`, {
      headers: { cookie: session.cookie },
      perMessageDeflate: false,
    });
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error('live socket: no welcome in time'));
    }, timeoutMs);
    const snapshotWaiters = new Map<string, (message: { docs: unknown[] }, bytes: number) => void>();
    socket.on('message', (data: Buffer) => {
      // Snapshots only; other messages are read by the benchmark's own listeners. Told apart by their
      // type's first letters, not parsed: a dashboard tab gets every create, thousands a second in all,
      // and this process shares the cores with the server it measures.
      const kind = data.toString('latin1', TYPE_OFFSET, TYPE_OFFSET + 2);
      if (kind === 'sn') {
        const message = JSON.parse(data.toString()) as { id: string; docs: unknown[] };
        snapshotWaiters.get(message.id)?.(message, data.length);
        snapshotWaiters.delete(message.id);
      } else if (kind === 'we') {
        clearTimeout(timer);
        resolve(live);
      } else if (kind === 'er') {
        console.error(`live error: ${data.toString().slice(0, 300)}`);
      }
    });
    socket.on('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      reject(new Error(`live upgrade refused: ${response.statusCode}`));
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const live: LiveSocket = {
      socket,
      subscribe: (id, target) =>
        new Promise((done, fail) => {
          const started = nowMs();
          const waitTimer = setTimeout(() => fail(new Error('no snapshot in 60 s')), 60_000);
          snapshotWaiters.set(id, (message, bytes) => {
            clearTimeout(waitTimer);
            done({ ms: nowMs() - started, docs: message.docs.length, bytes });
          });
          socket.send(JSON.stringify({ type: 'subscribe', id, target }));
        }),
      close: () => socket.terminate(),
    };
  });
}

/** Opens one dashboard tab: the socket plus its project-list subscription (first page of 50). */
async function openDashboardTab(
  baseUrl: string,
  session: Session,
  filter: DashboardFilter = 'all',
): Promise<LiveSocket> {
  const live = await openLive(baseUrl, session);
  await live.subscribe('1', dashboardQuery(filter, session.uid, 50));
  return live;
}

/** Opens `count` dashboard tabs spread over the sessions, `concurrency` handshakes at a time. */
export async function openDashboardTabs(
  baseUrl: string | ((index: number) => string),
  sessions: Session[],
  count: number,
  concurrency = 50,
): Promise<LiveSocket[]> {
  const sockets: LiveSocket[] = new Array<LiveSocket>(count);
  await pMap(
    new Array(count).keys(),
    async (index) => {
      const session = sessions[index % sessions.length];
      if (!session) throw new Error('no sessions');
      const url = typeof baseUrl === 'string' ? baseUrl : baseUrl(index);
      sockets[index] = await openDashboardTab(url, session);
    },
    { concurrency },
  );
  return sockets;
}

export async function closeAll(sockets: readonly LiveSocket[]): Promise<void> {
  for (const live of sockets) live?.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

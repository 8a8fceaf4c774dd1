import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { messages } from '../../common';
import { WAIT_MS } from '../../../test/support/poll';
import { openRaw, rawExchange, waitFor } from '../../../test/support/raw-http';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import {
  bucketUrl,
  signUpStorageUser,
  type StorageTestUser,
  useStorageSuite,
} from '../storage/testing/storage-http';
import { CHUNK_MAX_BYTES } from '../storage/uploads/resumable-uploads';

const THIRTY_MB = 30 * 1024 * 1024;

/** Request head for a raw client; `host` and the rest of the headers as given. */
const head = (requestLine: string, headers: Record<string, string | number>): string =>
  `${requestLine}\r\nHost: 127.0.0.1\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n';

/** Answered on the bare socket, before any request exists: no request id. */
const socketBodyOf = (code: string, message: string) => ({ error: { code, message } });
const bodyOf = (code: string, message: string) => ({
  error: { code, message, requestId: expect.any(String) },
});

describe('requests refused at the edge', () => {
  let server: TestServer;
  let alice: StorageTestUser;
  useStorageSuite((suite) => ({ server, alice } = suite));

  it('answers a signup form declaring 30 MB with 413 from its Content-Length, without reading it', async () => {
    const exchange = await rawExchange(
      server.url,
      head('POST /api/auth/signup HTTP/1.1', {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': THIRTY_MB,
      }) + '--x\r\n',
    );
    expect(exchange.status).toBe(413);
    expect(JSON.parse(exchange.body)).toEqual({
      error: {
        code: 'payload-too-large',
        message: messages.thumbnailTooLarge,
        fields: { thumbnail: messages.thumbnailTooLarge },
        requestId: expect.any(String),
      },
    });
    expect(exchange.closedByServer).toBe(true);
  });

  it('closes, rather than reads to the end, a refused storage upload declaring 30 MB', async () => {
    const exchange = await rawExchange(
      server.url,
      head(`POST /v0/b/dojo/o?name=${encodeURIComponent(`files/${alice.uid}/big.bin`)} HTTP/1.1`, {
        'content-type': 'application/octet-stream',
        'content-length': THIRTY_MB,
      }) + 'only a few bytes',
    );
    expect(exchange.status).toBe(401);
    expect(exchange.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it('refuses a thumbnail upload declaring 30 MB with the rules’ 403 before reading it', async () => {
    const exchange = await rawExchange(
      server.url,
      head(`POST /v0/b/dojo/o?name=${encodeURIComponent(`thumbnails/${alice.uid}/big.png`)} HTTP/1.1`, {
        ...alice.auth,
        'content-type': 'image/png',
        'content-length': THIRTY_MB,
      }) + '\x89PNG',
    );
    expect(exchange.status).toBe(403);
    expect(exchange.closedByServer).toBe(true);
  });

  it('refuses a resumable chunk declaring more than the chunk limit with 413 before reading it', async () => {
    const name = `files/${alice.uid}/chunked.bin`;
    const started = await fetch(`${bucketUrl(server.url)}?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: {
        ...alice.auth,
        'X-Goog-Upload-Protocol': 'resumable',
        'X-Goog-Upload-Command': 'start',
        'X-Goog-Upload-Header-Content-Length': String(CHUNK_MAX_BYTES * 2),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ name }),
    });
    expect(started.status).toBe(200);
    const uploadUrl = new URL(started.headers.get('x-goog-upload-url') ?? '', server.url);
    const exchange = await rawExchange(
      server.url,
      head(`POST ${uploadUrl.pathname}${uploadUrl.search} HTTP/1.1`, {
        ...alice.auth,
        'x-goog-upload-command': 'upload',
        'x-goog-upload-offset': 0,
        'content-length': CHUNK_MAX_BYTES + 1,
      }) + 'abc',
    );
    expect(exchange.status).toBe(413);
    expect(exchange.closedByServer).toBe(true);
  });

  it('still reads and drops a small refused body, keeping the connection for the next request', async () => {
    const connection = await openRaw(server.url);
    const body = 'twelve bytes';
    connection.socket.write(
      head(`POST /v0/b/dojo/o?name=${encodeURIComponent(`files/${alice.uid}/small.bin`)} HTTP/1.1`, {
        'content-length': body.length,
      }) +
        body +
        head('GET /api/health HTTP/1.1', { connection: 'close' }),
    );
    const exchange = await connection.outcome();
    expect(exchange.status).toBe(401);
    expect(exchange.body).toContain('HTTP/1.1 200 OK');
  });

  it('answers a multipart signup without a boundary with 400, not 500', async () => {
    const response = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'email=a',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(bodyOf('invalid-argument', messages.badRequest));
  });

  it('gives malformed URLs the standard JSON error body', async () => {
    for (const path of ['/api/%', '/%E0%A4%A', '/api/projects/%zz']) {
      const exchange = await rawExchange(server.url, head(`GET ${path} HTTP/1.1`, { connection: 'close' }));
      expect(exchange.status, path).toBe(400);
      expect(exchange.headers['content-type'], path).toMatch(/^application\/json/);
      expect(JSON.parse(exchange.body), path).toEqual(bodyOf('invalid-argument', messages.badRequest));
    }
  });

  it('gives a request Node’s parser refuses the standard JSON error body', async () => {
    for (const request of [
      'GET /api/health HTTP/1.1\r\nHost: x\r\nBad header\r\n\r\n',
      'GET /a\x01b HTTP/1.1\r\n\r\n',
    ]) {
      const exchange = await rawExchange(server.url, request);
      expect(exchange.status).toBe(400);
      expect(JSON.parse(exchange.body)).toEqual(socketBodyOf('invalid-argument', messages.badRequest));
      expect(exchange.closedByServer).toBe(true);
    }
  });

  it('answers GET /live without an upgrade as documented: 401 without credentials, 426 with', async () => {
    const anonymous = await fetch(`${server.url}/live`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(bodyOf('unauthenticated', messages.notSignedIn));

    const signedIn = await fetch(`${server.url}/live`, { headers: { cookie: alice.cookie } });
    expect(signedIn.status).toBe(426);
    expect(signedIn.headers.get('upgrade')).toBe('websocket');
    expect(await signedIn.json()).toEqual(bodyOf('upgrade-required', messages.liveUpgradeRequired));

    const openApi = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(openApi.paths['/live']?.get?.responses ?? {}).sort()).toEqual(['101', '401', '426']);
  });
});

describe('connections per client address', () => {
  const MAX = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ configOverrides: { maxConnectionsPerAddress: MAX } });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('destroys a connection past the cap at once, and accepts again when one closes', async () => {
    const held = await Promise.all(Array.from({ length: MAX }, () => openRaw(server.url)));
    const refused = await openRaw(server.url);
    refused.socket.write(head('GET /api/health HTTP/1.1', {}));
    const outcome = await refused.outcome();
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.status).toBeUndefined();

    // The held ones still work.
    held[0]!.socket.write(head('GET /api/health HTTP/1.1', { connection: 'close' }));
    expect((await held[0]!.outcome()).status).toBe(200);

    // One slot is free again once the server has seen that connection close.
    let status: number | undefined;
    for (const deadline = Date.now() + WAIT_MS; status !== 200 && Date.now() < deadline;) {
      const exchange = await rawExchange(
        server.url,
        head('GET /api/health HTTP/1.1', { connection: 'close' }),
      );
      status = exchange.status;
    }
    expect(status).toBe(200);
    for (const connection of held) connection.socket.destroy();
  });
});

describe('timeouts', () => {
  const timeouts = { headersMs: 300, bodyMs: 800, idleMs: 1000, keepAliveMs: 400 };
  let setup: TestServer;
  let server: TestServer;
  let alice: StorageTestUser;
  beforeAll(async () => {
    // Signing up hashes a password, which on a busy machine can outlast a 1 s idle timeout: the user is
    // made on an instance with the default timeouts, sharing the data with the one under test.
    setup = await startTestServer();
    alice = await signUpStorageUser(setup.url);
    server = await startTestServer({
      dataDir: setup.dataDir,
      databaseUrl: setup.databaseUrl,
      configOverrides: { httpTimeouts: timeouts },
    });
  });
  afterAll(async () => {
    await server.stop();
    await setup.stop();
  });

  /** Sends `pieces` one by one, `gapMs` apart, while the connection is open; returns the outcome. */
  async function trickle(pieces: string[], gapMs: number) {
    const connection = await openRaw(server.url);
    for (const piece of pieces) {
      if (connection.socket.destroyed || connection.received() !== '') break;
      connection.socket.write(piece);
      await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
    return connection.outcome();
  }

  it('answers 408 and closes when the headers do not arrive in time', async () => {
    const exchange = await trickle(
      Array.from({ length: 40 }, (_, index) =>
        index === 0 ? 'GET /api/health HTTP/1.1\r\n' : `X-${index}: a\r\n`,
      ),
      100,
    );
    expect(exchange.status).toBe(408);
    expect(JSON.parse(exchange.body)).toEqual(socketBodyOf('request-timeout', messages.requestTimeout));
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers 408 and closes when a JSON body trickles in too slowly', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'correct horse battery' });
    const exchange = await trickle(
      [
        head('POST /api/auth/login HTTP/1.1', {
          'content-type': 'application/json',
          'content-length': body.length,
        }),
        ...body.split(''),
      ],
      100,
    );
    expect(exchange.status).toBe(408);
    expect(JSON.parse(exchange.body)).toEqual(socketBodyOf('request-timeout', messages.requestTimeout));
    expect(exchange.closedByServer).toBe(true);
  });

  it('does not cut a storage upload that keeps making progress past every timeout', async () => {
    const chunks = Array.from({ length: 30 }, (_, index) => `chunk ${String(index).padStart(4, '0')}\n`);
    const size = chunks.join('').length;
    const exchange = await trickle(
      [
        head(`POST /v0/b/dojo/o?name=${encodeURIComponent(`files/${alice.uid}/slow.txt`)} HTTP/1.1`, {
          ...alice.auth,
          'content-type': 'text/plain',
          'content-length': size,
          connection: 'close',
        }),
        ...chunks,
      ],
      // 30 gaps of 100 ms: 3 s in all, past the body deadline and three idle timeouts.
      100,
    );
    expect(exchange.status).toBe(200);
    expect(JSON.parse(exchange.body)).toMatchObject({ size: String(size) });
  });

  it('keeps an idle /live socket open past the idle and keep-alive timeouts', async () => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/live`, {
      headers: { cookie: alice.cookie, origin: server.url },
    });
    const received: string[] = [];
    socket.on('message', (data) => received.push(String(data)));
    expect(await waitFor(() => received.length > 0)).toBe(true);
    let closed = false;
    socket.on('close', () => (closed = true));
    // Three idle timeouts without a byte either way, told by the server itself rather than by a clock: an
    // upload opened after the socket's last byte, that sends its headers and then nothing, is ended by the
    // server's timeouts, one after the other. The socket's own would have been due before each of them.
    for (let stalled = 0; stalled < 3; stalled += 1) {
      const upload = await openRaw(server.url);
      upload.socket.write(
        head(`POST /v0/b/dojo/o?name=${encodeURIComponent(`files/${alice.uid}/stalled.txt`)} HTTP/1.1`, {
          ...alice.auth,
          'content-type': 'text/plain',
          'content-length': 10,
        }),
      );
      expect((await upload.outcome()).closedByServer).toBe(true);
    }
    expect(closed).toBe(false);
    // Any message gets an answer (an invalid one, an error): the socket still carries both ways.
    socket.send(JSON.stringify({ type: 'subscribe', id: 'p' }));
    expect(await waitFor(() => received.length > 1)).toBe(true);
    socket.close();
  });
});

/**
 * An in-memory storage server behind a `fetch` function, for the storage client's unit tests only. It
 * speaks the protocol of docs/storage-protocol.md#4-operations closely enough to drive the upload task's state machine;
 * the real server is exercised by the integration tests (`*.int.test.ts`).
 */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array;
  command: string | null;
  offset: number | null;
}

export interface StoredObject {
  bytes: Uint8Array;
  resource: Record<string, unknown>;
}

interface Session {
  bucket: string;
  name: string;
  total: number;
  contentType: string;
  metadata: Record<string, unknown>;
  received: Uint8Array;
  size: number;
  final: Record<string, unknown> | null;
}

/** What an interceptor may do with a request: nothing (undefined), answer it, or drop the connection. */
type Interception = Response | 'network-error' | undefined;

export type Interceptor = (
  request: RecordedRequest,
  signal: AbortSignal | undefined,
) => Interception | Promise<Interception>;

export const abortError = (): Error => new DOMException('This operation was aborted', 'AbortError');

async function bodyBytes(body: unknown): Promise<Uint8Array> {
  if (body === undefined || body === null) return new Uint8Array(0);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body.slice();
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  throw new Error(`fake server: unsupported body ${Object.prototype.toString.call(body)}`);
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export class FakeStorageServer {
  readonly objects = new Map<string, StoredObject>();
  readonly sessions = new Map<string, Session>();
  readonly requests: RecordedRequest[] = [];
  /** Runs before the server answers; see `Interception`. */
  intercept: Interceptor | undefined;
  private nextId = 1;

  constructor(readonly origin = 'http://storage.test') {}

  /** Chunk commands and offsets/lengths sent so far, e.g. `upload@0+262144`. */
  get uploadLog(): string[] {
    return this.requests
      .filter((request) => request.command !== null && request.command !== 'start')
      .map((request) =>
        request.command === 'query'
          ? 'query'
          : `${request.command}@${request.offset ?? '?'}+${request.body.byteLength}`,
      );
  }

  readonly fetch: typeof fetch = async (input, init = {}) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw abortError();
    const headers = new Headers(init.headers);
    const offset = headers.get('x-goog-upload-offset');
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url: new URL(String(input)),
      headers,
      body: await bodyBytes(init.body),
      command: headers.get('x-goog-upload-command'),
      offset: offset === null ? null : Number(offset),
    };
    this.requests.push(request);
    const interception = await this.intercept?.(request, signal);
    if (signal?.aborted) throw abortError();
    if (interception === 'network-error') throw new TypeError('fetch failed');
    if (interception) return interception;
    return this.answer(request);
  };

  putObject(bucket: string, name: string, bytes: Uint8Array, extra: Record<string, unknown> = {}): void {
    this.objects.set(`${bucket}/${name}`, { bytes, resource: this.resource(bucket, name, bytes, extra) });
  }

  private resource(
    bucket: string,
    name: string,
    bytes: Uint8Array,
    extra: Record<string, unknown>,
  ): Record<string, unknown> {
    return {
      name,
      bucket,
      generation: '1',
      metageneration: '1',
      size: String(bytes.byteLength),
      timeCreated: '2026-01-01T00:00:00.000Z',
      updated: '2026-01-01T00:00:00.000Z',
      md5Hash: 'md5',
      contentType: 'application/octet-stream',
      downloadTokens: 'token-a,token-b',
      ...extra,
    };
  }

  private answer(request: RecordedRequest): Response {
    const { url } = request;
    const uploadId = url.searchParams.get('upload_id');
    if (uploadId !== null) return this.continueSession(request, uploadId);
    const objectMatch = /^\/v0\/b\/([^/]+)\/o\/([^/]+)$/.exec(url.pathname);
    if (objectMatch) {
      const key = `${decodeURIComponent(objectMatch[1] ?? '')}/${decodeURIComponent(objectMatch[2] ?? '')}`;
      const object = this.objects.get(key);
      if (!object) return new Response('Not Found', { status: 404, statusText: 'Not Found' });
      if (request.method === 'DELETE') {
        this.objects.delete(key);
        return new Response(null, { status: 204 });
      }
      return json(200, object.resource);
    }
    const bucketMatch = /^\/v0\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (bucketMatch && request.method === 'POST') {
      const bucket = decodeURIComponent(bucketMatch[1] ?? '');
      const name = url.searchParams.get('name') ?? '';
      if (request.headers.get('x-goog-upload-protocol') === 'multipart') {
        return this.multipart(bucket, name, request);
      }
      if (request.command === 'start') {
        const id = `s${this.nextId++}`;
        this.sessions.set(id, {
          bucket,
          name,
          total: Number(request.headers.get('x-goog-upload-header-content-length')),
          contentType: request.headers.get('x-goog-upload-header-content-type') ?? '',
          metadata: JSON.parse(new TextDecoder().decode(request.body)) as Record<string, unknown>,
          received: new Uint8Array(0),
          size: 0,
          final: null,
        });
        return new Response('', {
          status: 200,
          headers: {
            'x-goog-upload-status': 'active',
            'x-goog-upload-url': `${this.origin}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(name)}&upload_id=${id}&upload_protocol=resumable`,
          },
        });
      }
    }
    return new Response('Bad Request', { status: 400, statusText: 'Bad Request' });
  }

  private multipart(bucket: string, name: string, request: RecordedRequest): Response {
    const boundary = /boundary=(\S+)/.exec(request.headers.get('content-type') ?? '')?.[1] ?? '';
    // One character per byte, so string offsets are byte offsets.
    const text = new TextDecoder('latin1').decode(request.body);
    const jsonStart = text.indexOf('\r\n\r\n') + 4;
    const jsonEnd = text.indexOf(`\r\n--${boundary}\r\n`, jsonStart);
    const fileStart = text.indexOf('\r\n\r\n', jsonEnd) + 4;
    const fileEnd = text.length - `\r\n--${boundary}--`.length;
    const metadata = JSON.parse(
      new TextDecoder().decode(request.body.subarray(jsonStart, jsonEnd)),
    ) as Record<string, unknown>;
    this.putObject(bucket, name, request.body.slice(fileStart, fileEnd), {
      contentType: metadata.contentType,
    });
    return json(200, this.objects.get(`${bucket}/${name}`)?.resource);
  }

  private continueSession(request: RecordedRequest, id: string): Response {
    const session = this.sessions.get(id);
    if (!session) return new Response('Not Found', { status: 404, statusText: 'Not Found' });
    const commands = (request.command ?? '').split(',').map((command) => command.trim());
    const status = (value: string, extra: Record<string, string> = {}) => ({
      'x-goog-upload-status': value,
      ...extra,
    });
    if (commands.includes('query')) {
      return new Response('', {
        status: 200,
        headers: status(session.final ? 'final' : 'active', {
          'x-goog-upload-size-received': String(session.size),
        }),
      });
    }
    if (session.final) return json(200, session.final, status('final'));
    if (commands.includes('upload')) {
      const offset = request.offset ?? -1;
      if (offset > session.size) return new Response('gap', { status: 503 });
      const fresh = request.body.subarray(session.size - offset);
      const next = new Uint8Array(session.size + fresh.byteLength);
      next.set(session.received);
      next.set(fresh, session.size);
      session.received = next;
      session.size = next.byteLength;
    }
    if (commands.includes('finalize')) {
      if (session.size !== session.total) return new Response('wrong size', { status: 400 });
      this.putObject(session.bucket, session.name, session.received, {
        contentType: session.contentType,
      });
      session.final = this.objects.get(`${session.bucket}/${session.name}`)?.resource ?? null;
      return json(200, session.final, status('final'));
    }
    return new Response('', { status: 200, headers: status('active') });
  }
}

/** A fake clock whose sleeps return at once (after a macrotask) and are recorded. */
export class FakeClock {
  time = 0;
  readonly sleeps: number[] = [];
  constructor(private readonly jitter = 0) {}

  now = (): number => this.time;
  random = (): number => this.jitter;
  sleep = async (ms: number): Promise<void> => {
    this.sleeps.push(ms);
    this.time += ms;
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
}

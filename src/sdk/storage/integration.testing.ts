/**
 * Helpers for the storage client's integration tests (`*.int.test.ts`), which run the SDK against the
 * real server. Node only; not part of the SDK.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import { realSleep, type SleepFunction } from './backoff';
import { createStorage, type Storage, type StorageOptions } from './service';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Waits a fiftieth of what the SDK asks: the back-off logic runs as usual, the tests stay fast. */
const fastSleep: SleepFunction = (ms, signal) => realSleep(ms / 50, signal);

/** One request as the client sent it, and what the server said about the upload session. */
export interface SentRequest {
  method: string;
  url: string;
  command: string | null;
  offset: number | null;
  length: number;
  status: number | 'network-error' | 'aborted';
  sizeReceived: number | null;
  uploadStatus: string | null;
  /** The fetch options that decide whether Node's fetch tees (and copies) the body. */
  redirect: RequestRedirect | undefined;
  window: null | undefined;
}

export interface Recorder {
  fetch: typeof fetch;
  sent: SentRequest[];
  /** Called as each request goes out, before it reaches the network. */
  onSend: ((request: SentRequest) => void) | undefined;
}

/** A fetch that records every request (and its outcome) before passing it to the real one. */
function recordingFetch(): Recorder {
  const sent: SentRequest[] = [];
  const recorder: Recorder = { fetch: undefined as unknown as typeof fetch, sent, onSend: undefined };
  const wrapped: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    const offset = headers.get('x-goog-upload-offset');
    const body = init.body;
    const entry: SentRequest = {
      method: init.method ?? 'GET',
      url: String(input),
      command: headers.get('x-goog-upload-command'),
      offset: offset === null ? null : Number(offset),
      length:
        body instanceof Uint8Array
          ? body.byteLength
          : body instanceof Blob
            ? body.size
            : String(body ?? '').length,
      status: 'network-error',
      sizeReceived: null,
      uploadStatus: null,
      redirect: init.redirect,
      window: 'window' in init ? init.window : undefined,
    };
    sent.push(entry);
    recorder.onSend?.(entry);
    try {
      const response = await fetch(input, init);
      entry.status = response.status;
      const received = response.headers.get('x-goog-upload-size-received');
      entry.sizeReceived = received === null ? null : Number(received);
      entry.uploadStatus = response.headers.get('x-goog-upload-status');
      return response;
    } catch (error) {
      entry.status = init.signal?.aborted ? 'aborted' : 'network-error';
      throw error;
    }
  };
  recorder.fetch = wrapped;
  return recorder;
}

/** A storage instance of our own (fast sleeps, a recording fetch) for a signed-in SDK client. */
export function testStorage(
  baseUrl: string,
  getToken: () => Promise<string>,
  options: Partial<StorageOptions> = {},
): { storage: Storage; sent: SentRequest[]; recorder: Recorder } {
  const recorder = recordingFetch();
  const storage = createStorage({
    baseUrl,
    bucket: 'dojo',
    getToken,
    sleep: fastSleep,
    fetch: recorder.fetch,
    ...options,
  });
  return { storage, sent: recorder.sent, recorder };
}

/**
 * A TCP proxy in front of the server that, once armed, cuts the connection carrying the client's
 * `cutAfter`-th byte (counted client → server from the moment it is armed). Cuts once.
 */
export class CuttingProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private armedAt: number | null = null;
  private forwarded = 0;
  cuts = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as net.AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  /** Cut the connection that carries the next `bytes`-th byte from the client. */
  armCut(bytes: number): void {
    this.armedAt = this.forwarded + bytes;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('data', (data: Buffer) => {
      if (this.armedAt !== null && this.forwarded + data.length >= this.armedAt) {
        const keep = Math.max(0, this.armedAt - this.forwarded);
        this.armedAt = null;
        this.cuts += 1;
        upstream.write(data.subarray(0, keep), () => drop());
        this.forwarded += keep;
        return;
      }
      this.forwarded += data.length;
      if (!upstream.write(data)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    upstream.on('data', (data: Buffer) => {
      if (!client.write(data)) {
        upstream.pause();
        client.once('drain', () => upstream.resume());
      }
    });
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
  }
}

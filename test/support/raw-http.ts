import net from 'node:net';
import { WAIT_MS } from './poll';

/** What came back on a raw connection: the parsed answer (if any) and whether the server closed it. */
export interface RawExchange {
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** True when the server ended the connection before the deadline. */
  closedByServer: boolean;
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the server closed the connection, or at the deadline (then `closedByServer` is false). */
  outcome(deadlineMs?: number): Promise<RawExchange>;
}

/** Splits a raw HTTP/1.1 response into status, headers (lower-case names) and body. */
function parseRawResponse(text: string): Omit<RawExchange, 'closedByServer'> {
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || end < 0) return { status: undefined, headers: {}, body: text };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/**
 * A TCP connection to the server for requests fetch cannot express: headers that promise a body never
 * sent, a trickled body, a malformed request line. Every wait is bounded by a deadline.
 */
export async function openRaw(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket = net.connect(Number(port), hostname);
  let text = '';
  let closed = false;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  // A reset after the answer is still a closed connection.
  socket.on('error', () => undefined);
  const whenClosed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closed = true;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => text,
    async outcome(deadlineMs = WAIT_MS) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([whenClosed, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
      clearTimeout(timer);
      const closedByServer = closed;
      socket.destroy();
      return { ...parseRawResponse(text), closedByServer };
    },
  };
}

/** Sends `request` on a new connection and waits for the server to answer and close it (or the deadline). */
export async function rawExchange(
  baseUrl: string,
  request: string | Buffer,
  deadlineMs?: number,
): Promise<RawExchange> {
  const connection = await openRaw(baseUrl);
  connection.socket.write(request);
  return connection.outcome(deadlineMs);
}

/** Polls `condition` until it holds or the deadline passes. */
export async function waitFor(condition: () => boolean, deadlineMs = WAIT_MS): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

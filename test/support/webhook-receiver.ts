import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhooksClient } from '../../src/sdk/webhooks';
import type { SignedInClient } from './clients';

/** An admin's webhooks client on the member's own transport (session cookie). */
export const webhooksOf = (member: SignedInClient): WebhooksClient =>
  new WebhooksClient(member.client.transport);

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body. */
  json: { id: string; event: string; data: { project?: { id: string } } } & Record<string, unknown>;
  /** What the receiver answered. */
  status: number;
}

/**
 * A real HTTP receiver for webhook tests on 127.0.0.1: records every request with its headers and body,
 * answers what `answer` says (200 unless told), and counts requests in flight per path, so a test sees
 * whether an endpoint ever had two at once.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The most requests any one path had in flight at once. */
  maxInFlight = 0;
  /** Answer per request; `holdMs` keeps each request open that long, so overlaps would show. */
  answer: (request: { path: string; json: ReceivedWebhook['json'] }) => number = () => 200;
  holdMs = 0;
  private readonly inFlight = new Map<string, number>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      const chunks: Buffer[] = [];
      const now = (this.inFlight.get(path) ?? 0) + 1;
      this.inFlight.set(path, now);
      this.maxInFlight = Math.max(this.maxInFlight, now);
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const json = JSON.parse(body) as ReceivedWebhook['json'];
        const status = this.answer({ path, json });
        const finish = () => {
          this.inFlight.set(path, (this.inFlight.get(path) ?? 1) - 1);
          this.received.push({ path, headers: request.headers, body, json, status });
          response.writeHead(status, { 'content-type': 'text/plain' });
          response.end(status < 300 ? 'ok thanks' : 'receiver says no');
        };
        if (this.holdMs > 0) setTimeout(finish, this.holdMs);
        else finish();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Accepted (2xx) requests to `path`, in the order they arrived. */
  accepted(path: string): ReceivedWebhook[] {
    return this.received.filter((entry) => entry.path === path && entry.status < 300);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}

/** The test's own check of `Dojo-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export function signatureIsValid(
  secret: string,
  header: string | string[] | undefined,
  body: string,
): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const { t, v1 } = parts;
  if (!t || !v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

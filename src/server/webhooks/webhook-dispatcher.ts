import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { WEBHOOK_DELIVERIES_KEPT, WEBHOOK_SIGNATURE_HEADER } from '../../common/webhooks';
import type { Logger } from '../core/logger';
import { outboundRequest, type OutboundResponse } from '../core/outbound-http';
import type { Database } from '../db/schema';
import {
  claimEndpoint,
  countFailure,
  findEndpoint,
  findEndpointsWithDueDeliveries,
  headOfQueue,
  pruneFinishedDeliveries,
  recordAttempt,
  releaseClaim,
  renewClaim,
  resetFailures,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks-repository';

/** A request's whole exchange; the claim outlives it several times over. */
const REQUEST_TIMEOUT_MS = 10_000;
const CLAIM_MS = 60_000;
/** Of an answer, what is kept to show the admin. */
const RESPONSE_BYTES_KEPT = 1024;
const EXCERPT_CHARS = 500;
const ENDPOINTS_PER_PASS = 50;
const MAX_BACKOFF_MS = 60 * 60_000;

export interface WebhookDispatcherOptions {
  /** How often every instance looks for deliveries due (a commit on this instance wakes it at once). */
  pollMs: number;
  /** The first retry's wait; each next one waits twice as long, up to an hour. */
  retryBaseMs: number;
  /** How long a delivery is retried before it is given up (a day). */
  retryForMs: number;
  /** Failed attempts in a row after which an endpoint is disabled. */
  disableAfterFailures: number;
  /** OUTBOUND_ALLOW_PRIVATE (decision 070). */
  allowPrivate: boolean;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>` (docs/api.md#webhooks). */
function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * Sends the deliveries of the outbox (docs/decisions/077-webhook-delivery-guarantees.md). Every instance
 * runs one; an instance sends an endpoint's queue only while it holds that endpoint's claim, so one
 * delivery is never sent by two instances at once and an endpoint has at most one request in flight. The
 * queue goes in commit order, the oldest pending first: a delivery that fails holds the ones after it
 * back until it succeeds or is given up, which keeps each project's events in order.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      instanceId: string;
      log: Logger;
      options: WebhookDispatcherOptions;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.deps.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.again = false;
    await this.running;
  }

  /** Runs one pass now, or one more right after the pass in progress; nothing before `start`. */
  wake(): void {
    if (!this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'webhook delivery pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && this.timer) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pass(): Promise<void> {
    const due = await findEndpointsWithDueDeliveries(
      this.deps.db,
      new Date().toISOString(),
      ENDPOINTS_PER_PASS,
    );
    await Promise.all(due.map((endpointId) => this.drain(endpointId)));
  }

  /** Sends an endpoint's due queue while this instance holds its claim. */
  private async drain(endpointId: string): Promise<void> {
    const { db, instanceId } = this.deps;
    const claimUntil = () => new Date(Date.now() + CLAIM_MS).toISOString();
    if (!(await claimEndpoint(db, endpointId, instanceId, new Date().toISOString(), claimUntil()))) return;
    try {
      for (;;) {
        const endpoint = await findEndpoint(db, endpointId);
        const head = await headOfQueue(db, endpointId);
        if (!endpoint || endpoint.enabled !== 1 || !head) return;
        if (head.next_attempt_at !== null && head.next_attempt_at > new Date().toISOString()) return;
        // Renewed before each request: a claim that ran out (a stalled instance) is never used again.
        if (!(await renewClaim(db, endpointId, instanceId, new Date().toISOString(), claimUntil()))) return;
        if (!(await this.send(endpoint, head))) return;
      }
    } finally {
      // Under the claim, so two instances never prune one history at once.
      await pruneFinishedDeliveries(db, endpointId, WEBHOOK_DELIVERIES_KEPT);
      await releaseClaim(db, endpointId, instanceId);
    }
  }

  /** One attempt of the head of the queue; true when it was delivered (the queue may go on). */
  private async send(endpoint: WebhookEndpointRow, delivery: WebhookDeliveryRow): Promise<boolean> {
    const { db, log, options } = this.deps;
    const startedAt = Date.now();
    const timestamp = Math.floor(startedAt / 1000);
    let response: OutboundResponse | undefined;
    let problem: string | undefined;
    try {
      response = await outboundRequest(new URL(endpoint.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'TheDojo-Webhooks/1',
          'dojo-event': delivery.event,
          'dojo-delivery': delivery.id,
          [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: webhookSignature(
            endpoint.secret,
            timestamp,
            delivery.payload,
          ),
        },
        body: delivery.payload,
        timeoutMs: REQUEST_TIMEOUT_MS,
        maxBytes: RESPONSE_BYTES_KEPT,
        allowPrivate: options.allowPrivate,
      });
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const finishedAt = Date.now();
    const attempts = delivery.attempts + 1;
    const delivered = response !== undefined && response.status >= 200 && response.status < 300;
    const excerpt = response ? response.body.toString('utf8').slice(0, EXCERPT_CHARS) : (problem ?? null);
    const retryAt = startedAt + Math.min(options.retryBaseMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);
    const givenUp = !delivered && retryAt > Date.parse(delivery.created_at) + options.retryForMs;
    await recordAttempt(db, delivery.id, {
      status: delivered ? 'delivered' : givenUp ? 'failed' : 'pending',
      attempts,
      next_attempt_at: delivered || givenUp ? null : new Date(retryAt).toISOString(),
      last_attempt_at: new Date(startedAt).toISOString(),
      response_status: response?.status ?? null,
      duration_ms: finishedAt - startedAt,
      response_excerpt: excerpt,
    });
    if (delivered) {
      if (endpoint.consecutive_failures > 0) await resetFailures(db, endpoint.id);
      return true;
    }
    const why = response ? `HTTP ${response.status}` : (problem ?? 'no answer');
    const reason = `Disabled after ${options.disableAfterFailures} failed deliveries in a row (the last: ${why}).`;
    const disabled = await countFailure(
      db,
      endpoint.id,
      options.disableAfterFailures,
      new Date().toISOString(),
      reason,
    );
    if (disabled)
      log.warn({ endpointId: endpoint.id, url: endpoint.url }, 'webhook endpoint disabled after failures');
    // A given-up delivery no longer holds the queue back.
    return givenUp;
  }
}

import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Kysely } from 'kysely';
import {
  WEBHOOK_DELIVERIES_KEPT,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_EVENTS,
  webhookMessages,
  type CreatedWebhook,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../../common/webhooks';
import { AppError, forbidden, invalidArgument, notFound } from '../core/app-error';
import { newId } from '../core/ids';
import { isPrivateAddress } from '../core/outbound-http';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { WebhookOutbox } from './webhook-outbox';
import {
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  insertResend,
  listDeliveries,
  listEndpoints,
  updateEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './webhooks-repository';

/** Admins manage the install's webhook endpoints and see their deliveries (docs/decisions/077-…). */
export class WebhooksService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      outbox: WebhookOutbox;
      /** Wakes this instance's dispatcher (a resend, an endpoint enabled again). */
      wake: () => void;
      /** OUTBOUND_ALLOW_PRIVATE: whether endpoints may be on loopback and private networks. */
      allowPrivate: boolean;
    },
  ) {}

  async list(viewer: Viewer): Promise<WebhookEndpoint[]> {
    requireAdmin(viewer);
    return (await listEndpoints(this.deps.db)).map(presentEndpoint);
  }

  async create(viewer: Viewer, input: CreateWebhookInput): Promise<CreatedWebhook> {
    requireAdmin(viewer);
    await this.requireReachable(input.url);
    if ((await countEndpoints(this.deps.db)) >= WEBHOOK_ENDPOINTS_MAX) {
      throw new AppError('conflict', webhookMessages.tooMany);
    }
    const now = nowIso();
    const secret = input.secret ?? newSecret();
    const row = {
      id: newId(),
      url: input.url,
      events: eventsJson(input.events),
      secret,
      disabled_at: null,
      disabled_reason: null,
      created_by: viewer.uid,
      created_at: now,
      updated_at: now,
    };
    await insertEndpoint(this.deps.db, row);
    await this.endpointsChanged();
    return {
      endpoint: presentEndpoint({
        ...row,
        enabled: 1,
        consecutive_failures: 0,
        claimed_by: null,
        claimed_until: null,
      }),
      secret,
    };
  }

  async update(viewer: Viewer, id: string, input: UpdateWebhookInput): Promise<WebhookEndpoint> {
    requireAdmin(viewer);
    if (input.url !== undefined) await this.requireReachable(input.url);
    const enabledAgain = input.enabled === true;
    const written = await updateEndpoint(this.deps.db, id, {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: eventsJson(input.events) } : {}),
      ...(input.secret !== undefined ? { secret: input.secret } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled ? 1 : 0 } : {}),
      ...(enabledAgain ? { consecutive_failures: 0, disabled_at: null, disabled_reason: null } : {}),
      updated_at: nowIso(),
    });
    if (!written) throw notFound(webhookMessages.endpointNotFound);
    await this.endpointsChanged();
    if (enabledAgain) this.deps.wake();
    return this.endpoint(id);
  }

  async remove(viewer: Viewer, id: string): Promise<WebhookEndpoint> {
    requireAdmin(viewer);
    const endpoint = await this.endpoint(id);
    if (!(await deleteEndpoint(this.deps.db, id))) throw notFound(webhookMessages.endpointNotFound);
    await this.endpointsChanged();
    return endpoint;
  }

  async deliveries(viewer: Viewer, id: string): Promise<WebhookDelivery[]> {
    requireAdmin(viewer);
    await this.endpoint(id);
    return (await listDeliveries(this.deps.db, id, WEBHOOK_DELIVERIES_KEPT)).map(presentDelivery);
  }

  /** Sends a delivery's body again, at the end of its endpoint's queue. */
  async resend(viewer: Viewer, id: string, deliveryId: string): Promise<WebhookDelivery> {
    requireAdmin(viewer);
    const original = await findDelivery(this.deps.db, id, deliveryId);
    if (!original) throw notFound(webhookMessages.deliveryNotFound);
    const copy = await insertResend(this.deps.db, original, newId(), nowIso());
    this.deps.wake();
    return presentDelivery(copy);
  }

  private async endpoint(id: string): Promise<WebhookEndpoint> {
    const row = await findEndpoint(this.deps.db, id);
    if (!row) throw notFound(webhookMessages.endpointNotFound);
    return presentEndpoint(row);
  }

  /** This instance's writes see the change at once (others within the outbox's cache time). */
  private async endpointsChanged(): Promise<void> {
    this.deps.outbox.forget();
    await this.deps.outbox.refresh();
  }

  /**
   * Refuses an endpoint on a loopback, private or link-local address at save time, with a clear message.
   * The dispatcher checks again at every connection (a name may resolve elsewhere later).
   */
  private async requireReachable(url: string): Promise<void> {
    if (this.deps.allowPrivate) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    if (isIP(host) !== 0) addresses = [host];
    else {
      try {
        addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
      } catch {
        throw invalidArgument({ url: webhookMessages.urlUnresolvable });
      }
    }
    if (addresses.length === 0) throw invalidArgument({ url: webhookMessages.urlUnresolvable });
    if (addresses.some(isPrivateAddress)) throw invalidArgument({ url: webhookMessages.urlPrivate });
  }
}

/** Admins only; the role comes with the session (webhooks import nothing of team/, which is above them). */
function requireAdmin(viewer: Viewer): void {
  if (viewer.role !== 'admin') throw forbidden();
}

const newSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/** Known events only, each once, in the catalogue's order. */
const eventsJson = (events: readonly WebhookEvent[]): string =>
  JSON.stringify(WEBHOOK_EVENTS.filter((event) => events.includes(event)));

function presentEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as WebhookEvent[],
    enabled: row.enabled === 1,
    consecutiveFailures: Number(row.consecutive_failures),
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function presentDelivery(row: WebhookDeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.event as WebhookEvent,
    status: row.status as WebhookDeliveryStatus,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    responseExcerpt: row.response_excerpt,
  };
}

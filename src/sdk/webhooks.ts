import type {
  CreatedWebhook,
  CreateWebhookInput,
  UpdateWebhookInput,
  WebhookDelivery,
  WebhookEndpoint,
} from '../common/webhooks';
import type { Transport } from './transport';

const endpointPath = (id: string) => `/api/admin/webhooks/${encodeURIComponent(id)}`;

/**
 * The install's outgoing webhooks, for admins (docs/api.md "Webhooks"). Not part of `createDojoCoreClient`:
 * only the admin webhooks screen uses it, so it stays out of the first page's bundle; build it on a
 * client's transport, `new WebhooksClient(dojo.transport)`.
 */
export class WebhooksClient {
  constructor(private readonly transport: Transport) {}

  async list(): Promise<WebhookEndpoint[]> {
    return (await this.transport.request<{ endpoints: WebhookEndpoint[] }>('GET', '/api/admin/webhooks'))
      .endpoints;
  }

  /** The new endpoint and its signing secret, shown this once. */
  create(input: CreateWebhookInput): Promise<CreatedWebhook> {
    return this.transport.request<CreatedWebhook>('POST', '/api/admin/webhooks', input);
  }

  async update(id: string, input: UpdateWebhookInput): Promise<WebhookEndpoint> {
    return (await this.transport.request<{ endpoint: WebhookEndpoint }>('PATCH', endpointPath(id), input))
      .endpoint;
  }

  async remove(id: string): Promise<void> {
    await this.transport.request<unknown>('DELETE', endpointPath(id));
  }

  /** The endpoint's recent deliveries, newest first. */
  async deliveries(id: string): Promise<WebhookDelivery[]> {
    return (
      await this.transport.request<{ deliveries: WebhookDelivery[] }>('GET', `${endpointPath(id)}/deliveries`)
    ).deliveries;
  }

  /** Queues the delivery's body again; the answer is the new delivery. */
  async resend(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return (
      await this.transport.request<{ delivery: WebhookDelivery }>(
        'POST',
        `${endpointPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
      )
    ).delivery;
  }
}

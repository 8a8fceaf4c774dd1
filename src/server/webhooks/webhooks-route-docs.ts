import {
  CreatedWebhookSchema,
  CreateWebhookSchema,
  UpdateWebhookSchema,
  WebhookDeliveryListSchema,
  WebhookDeliveryParamsSchema,
  WebhookDeliveryResultSchema,
  WebhookEndpointListSchema,
  WebhookEndpointResultSchema,
  WebhookParamsSchema,
} from '../../common/webhooks';
import { describeRoutes, jsonBody } from '../http/api-docs';

const onEndpoint = { tag: 'Webhooks', caller: 'admin', params: WebhookParamsSchema } as const;

export const webhooksRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/admin/webhooks',
    tag: 'Webhooks',
    summary: "The install's webhook endpoints (admins)",
    description: 'Never their secrets. A disabled endpoint says when and why it was disabled.',
    caller: 'admin',
    response: { status: 200, description: 'The endpoints, oldest first', schema: WebhookEndpointListSchema },
  },
  {
    method: 'POST',
    path: '/api/admin/webhooks',
    tag: 'Webhooks',
    summary: 'Adds a webhook endpoint; the answer holds its signing secret, shown this once (admins)',
    description:
      'An address on a loopback, private or link-local network is refused (400) unless the operator set OUTBOUND_ALLOW_PRIVATE. Without `secret` the server makes one. At most 20 endpoints (409 beyond).',
    caller: 'admin',
    body: jsonBody(CreateWebhookSchema),
    response: { status: 201, description: 'The endpoint and its secret', schema: CreatedWebhookSchema },
    errors: ['conflict'],
  },
  {
    ...onEndpoint,
    method: 'PATCH',
    path: '/api/admin/webhooks/{id}',
    summary: "Changes an endpoint's address, events or secret, or enables it again (admins)",
    description:
      '`enabled: true` re-enables an endpoint disabled after repeated failures; its pending deliveries go.',
    body: jsonBody(UpdateWebhookSchema),
    response: { status: 200, description: 'The endpoint', schema: WebhookEndpointResultSchema },
    errors: ['not-found'],
  },
  {
    ...onEndpoint,
    method: 'DELETE',
    path: '/api/admin/webhooks/{id}',
    summary: 'Removes an endpoint with its deliveries (admins)',
    response: { status: 200, description: 'The endpoint removed', schema: WebhookEndpointResultSchema },
    errors: ['not-found'],
  },
  {
    ...onEndpoint,
    method: 'GET',
    path: '/api/admin/webhooks/{id}/deliveries',
    summary: "An endpoint's recent deliveries, newest first: status, attempts, duration, answer (admins)",
    response: { status: 200, description: 'Up to 50 deliveries', schema: WebhookDeliveryListSchema },
    errors: ['not-found'],
  },
  {
    method: 'POST',
    path: '/api/admin/webhooks/{id}/deliveries/{deliveryId}/resend',
    tag: 'Webhooks',
    summary: "Sends a delivery's body again, at the end of its endpoint's queue (admins)",
    caller: 'admin',
    params: WebhookDeliveryParamsSchema,
    response: { status: 201, description: 'The new delivery', schema: WebhookDeliveryResultSchema },
    errors: ['not-found'],
  },
]);

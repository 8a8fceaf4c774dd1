import type { FastifyInstance } from 'fastify';
import {
  CreateWebhookSchema,
  UpdateWebhookSchema,
  WebhookDeliveryParamsSchema,
  WebhookParamsSchema,
} from '../../common/webhooks';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { WebhooksService } from './webhooks-service';

/** The install's outgoing webhooks, under /api/admin (403 for members). */
export function registerWebhooksRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; webhooks: WebhooksService },
): void {
  const { viewers, webhooks } = deps;

  app.get('/api/admin/webhooks', async (request) => {
    const viewer = await viewers.requireViewer(request);
    return { endpoints: await webhooks.list(viewer) };
  });

  app.post('/api/admin/webhooks', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(CreateWebhookSchema, request.body);
    const created = await webhooks.create(viewer, input);
    // The secret is in this answer only: no cache along the way may keep it.
    reply.header('cache-control', 'no-store');
    return reply.status(201).send(created);
  });

  app.patch('/api/admin/webhooks/:id', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(WebhookParamsSchema, request.params);
    const input = parseInput(UpdateWebhookSchema, request.body);
    return { endpoint: await webhooks.update(viewer, id, input) };
  });

  app.delete('/api/admin/webhooks/:id', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(WebhookParamsSchema, request.params);
    return { endpoint: await webhooks.remove(viewer, id) };
  });

  app.get('/api/admin/webhooks/:id/deliveries', async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(WebhookParamsSchema, request.params);
    return { deliveries: await webhooks.deliveries(viewer, id) };
  });

  app.post('/api/admin/webhooks/:id/deliveries/:deliveryId/resend', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id, deliveryId } = parseInput(WebhookDeliveryParamsSchema, request.params);
    return reply.status(201).send({ delivery: await webhooks.resend(viewer, id, deliveryId) });
  });
}

import { z } from 'zod/mini';

/**
 * Outgoing webhooks (docs/decisions/077-webhook-delivery-guarantees.md): the events, the request and answer
 * shapes of the admin routes, their limits and their messages. Imported by path (never through index.ts),
 * so only the admin webhooks screen's chunk and the server carry it.
 */

/** What an endpoint may ask to hear of, as named in each delivery's `event` and `Dojo-Event` header. */
export const WEBHOOK_EVENTS = [
  'project.created',
  'project.edited',
  'project.completed',
  'project.reopened',
  'project.deleted',
  'comment.added',
  'member.joined',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const WEBHOOK_URL_MAX_LENGTH = 2000;
const WEBHOOK_SECRET_MIN_LENGTH = 16;
const WEBHOOK_SECRET_MAX_LENGTH = 200;
/** Endpoints one install may have: each one is a queue every write may add to. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/**
 * Finished deliveries (delivered or failed) kept per endpoint, newest first: what the admin page lists. Older
 * ones are removed as the queue is sent, so a busy endpoint's history does not grow without end.
 */
export const WEBHOOK_DELIVERIES_KEPT = 50;
/** The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Dojo-Signature';

export const webhookMessages = {
  urlInvalid: 'Enter the endpoint as a full http:// or https:// address.',
  urlTooLong: `An endpoint address is at most ${WEBHOOK_URL_MAX_LENGTH} characters.`,
  urlPrivate:
    'This address is on a loopback, private or link-local network, which webhooks may not reach. Use a public address (or ask the operator to set OUTBOUND_ALLOW_PRIVATE).',
  urlUnresolvable: 'This address does not resolve to any host. Check its spelling.',
  eventsRequired: 'Choose at least one event to send.',
  eventInvalid: `Choose events among: ${WEBHOOK_EVENTS.join(', ')}.`,
  secretInvalid: `A secret is ${WEBHOOK_SECRET_MIN_LENGTH} to ${WEBHOOK_SECRET_MAX_LENGTH} characters without spaces.`,
  tooMany: `An install has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints. Remove one first.`,
  endpointNotFound: 'This webhook endpoint does not exist or was removed.',
  deliveryNotFound: 'This delivery does not exist.',
  enabledInvalid: 'Say whether the endpoint is enabled: true or false.',
} as const;

const WebhookUrlSchema = z.string({ error: webhookMessages.urlInvalid }).check(
  z.trim(),
  z.minLength(1, webhookMessages.urlInvalid),
  z.maxLength(WEBHOOK_URL_MAX_LENGTH, webhookMessages.urlTooLong),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
      );
    } catch {
      return false;
    }
  }, webhookMessages.urlInvalid),
);

const WebhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: webhookMessages.eventInvalid }), {
    error: webhookMessages.eventsRequired,
  })
  .check(z.minLength(1, webhookMessages.eventsRequired), z.maxLength(WEBHOOK_EVENTS.length * 2));

const WebhookSecretSchema = z
  .string({ error: webhookMessages.secretInvalid })
  .check(
    z.minLength(WEBHOOK_SECRET_MIN_LENGTH, webhookMessages.secretInvalid),
    z.maxLength(WEBHOOK_SECRET_MAX_LENGTH, webhookMessages.secretInvalid),
    z.regex(/^\S+$/, webhookMessages.secretInvalid),
  );

export const CreateWebhookSchema = z.object({
  url: WebhookUrlSchema,
  events: WebhookEventsSchema,
  /** The admin's own secret; absent: the server makes one and shows it in this answer only. */
  secret: z.optional(WebhookSecretSchema),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookSchema>;

export const UpdateWebhookSchema = z.object({
  url: z.optional(WebhookUrlSchema),
  events: z.optional(WebhookEventsSchema),
  secret: z.optional(WebhookSecretSchema),
  /** true re-enables an endpoint disabled after failures (its failure count starts again at zero). */
  enabled: z.optional(z.boolean({ error: webhookMessages.enabledInvalid })),
});
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookSchema>;

export const WebhookParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
});

export const WebhookDeliveryParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  deliveryId: z.string().check(z.minLength(1), z.maxLength(160)),
});

const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  /** Failed attempts in a row; at the install's limit the endpoint is disabled. */
  consecutiveFailures: z.number(),
  /** When it was disabled after repeated failures; null while enabled. */
  disabledAt: z.nullable(z.string()),
  disabledReason: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = z.object({ endpoints: z.array(WebhookEndpointSchema) });
export const WebhookEndpointResultSchema = z.object({ endpoint: WebhookEndpointSchema });

/** The answer to a create (and to a change of secret): the only time the secret is shown. */
export const CreatedWebhookSchema = z.object({
  endpoint: WebhookEndpointSchema,
  secret: z.string(),
});
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const WebhookDeliverySchema = z.object({
  id: z.string(),
  event: z.enum(WEBHOOK_EVENTS),
  /** pending (waiting or retrying), delivered (a 2xx answer), failed (given up after a day). */
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  createdAt: z.string(),
  lastAttemptAt: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.string()),
  /** The last answer's HTTP status; null when no answer came (refused, network error, time-out). */
  responseStatus: z.nullable(z.number()),
  durationMs: z.nullable(z.number()),
  /** The first bytes of the last answer's body, or why there was none. */
  responseExcerpt: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z.object({ deliveries: z.array(WebhookDeliverySchema) });
export const WebhookDeliveryResultSchema = z.object({ delivery: WebhookDeliverySchema });

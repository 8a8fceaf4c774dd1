import { z } from 'zod/mini';
import { LIVE_QUERY_LIMIT_MAX } from './limits';

/**
 * The client → server messages of the live-data protocol (live-protocol.ts), validated by the server.
 * Built when this module is imported, hence apart from the protocol's zod-free constants and types.
 */
/** Every collection a live subscription may follow; each has its row in the live authorization tests. */
export const LIVE_COLLECTIONS = [
  'users',
  'projects',
  'comments',
  'notifications',
  'project_viewers',
  'attachments',
] as const;
const LiveCollectionSchema = z.enum(LIVE_COLLECTIONS);
export type LiveCollection = z.infer<typeof LiveCollectionSchema>;

const boundedString = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

const LiveWhereSchema = z.object({
  field: boundedString(64),
  /**
   * `contains-text`: the field's text contains the value, ignoring case and accents (users' names).
   * `>=` and `<`: the field's text sorts at or after / before the value (projects' due dates, the calendar).
   */
  op: z.enum(['==', 'array-contains', 'contains-text', '>=', '<']),
  value: z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()]),
});
export type LiveWhere = z.infer<typeof LiveWhereSchema>;

const LiveQuerySchema = z.object({
  kind: z.literal('query'),
  collection: LiveCollectionSchema,
  where: z.optional(z.array(LiveWhereSchema).check(z.maxLength(4))),
  orderBy: z.optional(z.object({ field: boundedString(64), direction: z.enum(['asc', 'desc']) })),
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(LIVE_QUERY_LIMIT_MAX))),
  /**
   * Keyset bounds on the order (docs/decisions/021-project-paging.md): `[value of the orderBy field, id]`
   * of a document. `startAfter` keeps documents after it in the order; `endAt` keeps them up to and
   * including it. A page that is bounded on both sides stays exactly that slice of the list while
   * documents come and go around and inside it.
   */
  startAfter: z.optional(z.tuple([boundedString(64), boundedString(64)])),
  endAt: z.optional(z.tuple([boundedString(64), boundedString(64)])),
  /**
   * A named shape of the documents, for a screen that draws only some fields; left out, whole documents.
   * Only projects have one, `calendar` (src/common/calendar.ts); the projects source refuses any other.
   */
  shape: z.optional(boundedString(32)),
});
export type LiveQuery = z.infer<typeof LiveQuerySchema>;

const LiveDocTargetSchema = z.object({
  kind: z.literal('doc'),
  collection: LiveCollectionSchema,
  id: boundedString(64),
});

const LiveTargetSchema = z.discriminatedUnion('kind', [LiveQuerySchema, LiveDocTargetSchema]);
export type LiveTarget = z.infer<typeof LiveTargetSchema>;

export const LiveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), id: boundedString(64), target: LiveTargetSchema }),
  z.object({ type: z.literal('unsubscribe'), id: boundedString(64) }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

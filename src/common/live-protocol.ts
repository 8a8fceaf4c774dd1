import { z } from 'zod/mini';
import type { ErrorCode } from './errors';

/**
 * The live-data protocol over one WebSocket per tab at `/live` (docs/api.md has examples).
 * Client → server messages are validated with these schemas; server → client ones are typed only.
 */
export const LIVE_PATH = '/live';

export const LiveCollectionSchema = z.enum(['users', 'projects']);
export type LiveCollection = z.infer<typeof LiveCollectionSchema>;

const boundedString = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const LiveWhereSchema = z.object({
  field: boundedString(64),
  /** `contains-text`: the field's text contains the value, ignoring case and accents (users' names). */
  op: z.enum(['==', 'array-contains', 'contains-text']),
  value: z.union([z.string().check(z.maxLength(200)), z.number(), z.boolean()]),
});
export type LiveWhere = z.infer<typeof LiveWhereSchema>;

export const LiveQuerySchema = z.object({
  kind: z.literal('query'),
  collection: LiveCollectionSchema,
  where: z.optional(z.array(LiveWhereSchema).check(z.maxLength(4))),
  orderBy: z.optional(z.object({ field: boundedString(64), direction: z.enum(['asc', 'desc']) })),
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(1000))),
});
export type LiveQuery = z.infer<typeof LiveQuerySchema>;

export const LiveDocTargetSchema = z.object({
  kind: z.literal('doc'),
  collection: LiveCollectionSchema,
  id: boundedString(64),
});
export type LiveDocTarget = z.infer<typeof LiveDocTargetSchema>;

export const LiveTargetSchema = z.discriminatedUnion('kind', [LiveQuerySchema, LiveDocTargetSchema]);
export type LiveTarget = z.infer<typeof LiveTargetSchema>;

export const LiveClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), id: boundedString(64), target: LiveTargetSchema }),
  z.object({ type: z.literal('unsubscribe'), id: boundedString(64) }),
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

export type LiveChangeType = 'added' | 'modified' | 'removed';

export interface LiveDoc {
  id: string;
  [field: string]: unknown;
}

export interface LiveChange<T extends LiveDoc = LiveDoc> {
  type: LiveChangeType;
  doc: T;
  /** For added and modified docs: the doc's position in the new result. */
  newIndex?: number;
}

export type LiveServerMessage =
  /** Sent once after the socket is accepted. */
  | { type: 'welcome'; uid: string }
  /** The full current result of a subscription; replaces whatever the client held. */
  | { type: 'snapshot'; id: string; docs: LiveDoc[] }
  /** Changes after a commit, in order; applying them to the last snapshot gives the new result. */
  | { type: 'changes'; id: string; changes: LiveChange[] }
  /** A subscription failed (bad query, no permission); it is closed. */
  | { type: 'error'; id?: string; code: ErrorCode; message: string }
  /** The session behind this socket ended (logout in another tab, expiry). */
  | { type: 'signed-out' };

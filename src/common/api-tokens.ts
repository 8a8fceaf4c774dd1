import { z } from 'zod/mini';

/**
 * Personal API tokens (docs/decisions/063-personal-api-tokens.md): the request and answer shapes, their
 * limits and their messages. Imported by path (never through index.ts), so only the settings screen's
 * chunk and the server carry it.
 */

/** Every token's secret starts so: a reader (and a secret scanner) can tell one from an id token. */
export const API_TOKEN_PREFIX = 'dojo_pat_';

/** 'read' reads only; 'write' reads and writes, as its owner may. */
const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** The lifetimes a token may be given, in days: bounded, so a forgotten token ends on its own. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

export const API_TOKEN_NAME_MAX_LENGTH = 80;
/** Live (unexpired) tokens one member may hold at once. */
export const API_TOKENS_PER_MEMBER = 20;

export const apiTokenMessages = {
  nameRequired: 'Name the token, e.g. after the script that will use it.',
  nameTooLong: `A token's name is at most ${API_TOKEN_NAME_MAX_LENGTH} characters.`,
  scopeInvalid: "Choose the token's scope: read, or read and write.",
  expiryInvalid: `Choose how long the token lasts: ${API_TOKEN_EXPIRY_DAYS.join(', ')} days.`,
  tooMany: `You already hold ${API_TOKENS_PER_MEMBER} tokens. Revoke one you no longer use first.`,
  notFound: 'This token does not exist or was already revoked.',
  readOnly: 'This API token may only read. Create a token with the read and write scope to make changes.',
  browserSessionOnly:
    'API tokens cannot manage the account (tokens, password, sessions, deletion). Sign in with a browser to do this.',
} as const;

export const CreateApiTokenSchema = z.object({
  name: z
    .string({ error: apiTokenMessages.nameRequired })
    .check(
      z.trim(),
      z.minLength(1, apiTokenMessages.nameRequired),
      z.maxLength(API_TOKEN_NAME_MAX_LENGTH, apiTokenMessages.nameTooLong),
    ),
  scope: z.enum(API_TOKEN_SCOPES, { error: apiTokenMessages.scopeInvalid }),
  expiresInDays: z.union(
    API_TOKEN_EXPIRY_DAYS.map((days) => z.literal(days)),
    { error: apiTokenMessages.expiryInvalid },
  ),
});
export type CreateApiTokenInput = z.infer<typeof CreateApiTokenSchema>;

export const ApiTokenParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
});

const ApiTokenSchema = z.object({
  /** Public id: what the list shows and a revoke names; never the secret nor its hash. */
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** When a request last proved itself with it (recorded at most every few minutes); null if never. */
  lastUsedAt: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

export const ApiTokenListSchema = z.object({ tokens: z.array(ApiTokenSchema) });

/** The answer to a create: the only time the secret is ever shown. */
export const CreatedApiTokenSchema = z.object({
  token: ApiTokenSchema,
  /** `dojo_pat_…`: send it as `Authorization: Bearer <secret>`. Not stored; shown this once. */
  secret: z.string(),
});
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

/**
 * Whether a request signed with a personal API token may call this route (a Fastify pattern or an OpenAPI
 * path): everything its owner may, except the account's own security (its tokens, password, sessions,
 * deletion and sign-in factors, all under /api/account but the profile) and minting id tokens, which need a
 * browser session. The server's guard and the OpenAPI document both ask it.
 */
export function apiTokensMayCall(path: string): boolean {
  if (path === '/api/auth/token') return false;
  return !path.startsWith('/api/account/') || path === '/api/account/profile';
}

import path from 'node:path';
import { z } from 'zod';
import {
  HTTP_BODY_TIMEOUT_MS,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_IDLE_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS_PER_ADDRESS,
} from '../common';

/**
 * The only module that reads `process.env`. Everything is validated once at start; a bad value stops
 * the process with a list of every problem rather than failing later in a request.
 */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset to use SQLite)')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  STORAGE_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9.\-_]+$/, 'may contain only letters, digits, dot, dash and underscore')
    .default('dojo'),
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  APP_CHECK_ENFORCED: z.enum(['true', 'false']).default('false'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  PRESENCE_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(MAX_CONNECTIONS_PER_ADDRESS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded SQLite database at `$DATA_DIR/dojo.sqlite`. */
  databaseUrl: string | undefined;
  /** Base for absolute download URLs; unset means URLs relative to the request's origin. */
  publicUrl: string | undefined;
  storageBucket: string;
  /** Bytes each user may keep under `files/{uid}/`. */
  storageQuotaBytes: number;
  appCheckEnforced: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Where the production web build lives; unset serves no web app (API-only tests). */
  webRoot: string | undefined;
  /** Login and signup attempts allowed per client address per minute. */
  authRateLimitPerMinute: number;
  /** How long a user stays online after their last live connection closes without a logout. */
  presenceGraceMs: number;
  /** Open TCP connections allowed per peer address (the proxy's address behind a proxy). */
  maxConnectionsPerAddress: number;
  /** HTTP timeouts (src/common/limits.ts); not in the environment, tests shorten them. */
  httpTimeouts: HttpTimeouts;
}

export interface HttpTimeouts {
  headersMs: number;
  bodyMs: number;
  idleMs: number;
  keepAliveMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A blank `PORT=` line means "not set", not 0.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const values = parsed.data;
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    publicUrl: values.PUBLIC_URL?.replace(/\/$/, ''),
    storageBucket: values.STORAGE_BUCKET,
    storageQuotaBytes: values.STORAGE_QUOTA_BYTES,
    appCheckEnforced: values.APP_CHECK_ENFORCED === 'true',
    logLevel: values.LOG_LEVEL,
    webRoot: path.resolve('dist/web'),
    authRateLimitPerMinute: values.AUTH_RATE_LIMIT_PER_MINUTE,
    presenceGraceMs: values.PRESENCE_GRACE_MS,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    httpTimeouts: {
      headersMs: HTTP_HEADERS_TIMEOUT_MS,
      bodyMs: HTTP_BODY_TIMEOUT_MS,
      idleMs: HTTP_IDLE_TIMEOUT_MS,
      keepAliveMs: HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
  };
}

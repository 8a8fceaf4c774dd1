import { ATTACHMENT_MAX_BYTES_DEFAULT } from '../../common/attachments';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import {
  COMMENTS_PER_MINUTE,
  HTTP_BODY_TIMEOUT_MS,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_IDLE_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  LIVE_MAX_SOCKETS_PER_SESSION,
  LIVE_MAX_SOCKETS_PER_USER,
  LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
  LOGIN_FAILURES_PER_ACCOUNT,
  MAX_CONNECTIONS_PER_ADDRESS,
  PRESENCE_GRACE_MS,
  PROJECT_CREATES_PER_MINUTE,
  STORAGE_UPLOAD_SESSION_TTL_MAX_MS,
  UPLOADS_PER_MINUTE,
  EXPORTS_PER_MINUTE,
  WRITES_PER_MINUTE,
  SIGNUP_POLICY_MODES,
  SignupPolicySchema,
  type SignupPolicy,
} from '../../common';
import { oidcProvidersOf, type OidcProviderConfig } from './single-sign-on-config';

/** Fastify's `trustProxy`: trust nothing, or the proxies at these addresses, ranges and names. */
type TrustProxy = false | string[];

/** The names proxy-addr (Fastify's `trustProxy`) knows besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Proxies are named, never counted: a hop count cannot tell the proxy from a client that reaches the app
 * directly and writes its own `X-Forwarded-For`, and Fastify ignores one for that reason.
 */
const TrustProxySchema = z
  .string()
  .transform((value, context): TrustProxy => {
    if (/^\d+$/.test(value)) {
      context.addIssue({
        code: 'custom',
        message:
          'hop counts are not supported: list the proxy addresses or CIDR ranges (e.g. 127.0.0.1 or 10.0.0.0/8)',
      });
      return z.NEVER;
    }
    const entries = value.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `must be comma-separated proxy addresses or CIDR ranges (not: ${bad.join(', ')})`,
      });
      return z.NEVER;
    }
    return entries;
  })
  .default(false);

function isTimeZone(name: string): boolean {
  // UTC, the default, without Intl: a time zone lookup loads ICU's data (see zonedDayAndHour).
  if (name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The only module that reads `process.env`. Everything is validated once at start; a bad value stops
 * the process with a list of every problem rather than failing later in a request.
 */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset to use SQLite)')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{24,}$/, 'at least 24 printable characters, no spaces (e.g. openssl rand -hex 24)')
    .optional(),
  STORAGE_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9.\-_]+$/, 'may contain only letters, digits, dot, dash and underscore')
    .default('dojo'),
  STORAGE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  ATTACHMENT_MAX_BYTES: z.coerce.number().int().min(1).default(ATTACHMENT_MAX_BYTES_DEFAULT),
  ATTACHMENT_UNREGISTERED_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  STORAGE_UPLOAD_TTL_MS: z.coerce
    .number()
    .int()
    .min(10 * 60 * 1000)
    .max(STORAGE_UPLOAD_SESSION_TTL_MAX_MS)
    .default(STORAGE_UPLOAD_SESSION_TTL_MAX_MS),
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_KEY_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9._\-/]*\/$/,
      "must end with '/' and contain only letters, digits, '.', '_', '-' and '/'",
    )
    .default(''),
  APP_CHECK_ENFORCED: z.enum(['true', 'false']).default('false'),
  OUTBOUND_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  TRUST_PROXY: TrustProxySchema,
  LOGIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(LOGIN_FAILURES_PER_ACCOUNT),
  PRESENCE_GRACE_MS: z.coerce.number().int().min(1000).max(600_000).default(PRESENCE_GRACE_MS),
  NOTIFICATION_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Paris')
    .default('UTC'),
  DUE_REMINDER_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce
    .number()
    .int()
    .min(1)
    .default(LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET),
  LIVE_MAX_SOCKETS_PER_SESSION: z.coerce.number().int().min(1).default(LIVE_MAX_SOCKETS_PER_SESSION),
  LIVE_MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).default(LIVE_MAX_SOCKETS_PER_USER),
  PROJECT_CREATES_PER_MINUTE: z.coerce.number().int().min(1).default(PROJECT_CREATES_PER_MINUTE),
  COMMENTS_PER_MINUTE: z.coerce.number().int().min(1).default(COMMENTS_PER_MINUTE),
  UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).default(UPLOADS_PER_MINUTE),
  EXPORTS_PER_MINUTE: z.coerce.number().int().min(1).default(EXPORTS_PER_MINUTE),
  WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(WRITES_PER_MINUTE),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).default(MAX_CONNECTIONS_PER_ADDRESS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SIGNUP_POLICY: z.enum(SIGNUP_POLICY_MODES).default('open'),
  SIGNUP_EMAIL_DOMAINS: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps:// (leave it unset to send no email)')
    .optional(),
  SMTP_FROM: z.string().min(3).default('The Dojo <no-reply@localhost>'),
  OIDC_PROVIDERS: z.string().optional(),
});

/** One line per variable for `.env.example` (scripts/env-example.ts writes it from this and the schema). */
export const ENV_DESCRIPTIONS: Record<keyof typeof EnvSchema.shape, string> = {
  PORT: 'HTTP port',
  HOST: 'listen address',
  DATA_DIR: 'SQLite database (dojo.sqlite) and stored files (storage/)',
  DATABASE_URL:
    'postgres://user:pass@host:5432/db to run on PostgreSQL (several instances may share it); unset: SQLite',
  PUBLIC_URL:
    'external base URL (https://dojo.example.com): every emailed link, absolute download and upload URLs, the only allowed Origin, HSTS, Secure cookie; required with SMTP_URL',
  METRICS_TOKEN:
    'bearer token for GET /metrics (Prometheus text); unset: metrics off and the metrics library never loads',
  STORAGE_BUCKET: 'the only bucket; others answer 404',
  STORAGE_QUOTA_BYTES: 'bytes each user may store, open uploads included',
  ATTACHMENT_MAX_BYTES: 'the largest file one attachment may be (bytes)',
  ATTACHMENT_UNREGISTERED_HOURS:
    'hours an uploaded file may wait for its registration as an attachment before it is deleted',
  STORAGE_UPLOAD_TTL_MS: 'how long an unfinished resumable upload lives after its start (10 min .. 24 h)',
  STORAGE_DRIVER: 'where file bytes live: disk (DATA_DIR/storage) or s3 (the S3_* variables)',
  S3_ENDPOINT: 'S3-compatible endpoint URL (https://s3.example.com); unset: AWS S3 of S3_REGION',
  S3_BUCKET: 'the S3 bucket that holds the bytes (made beforehand); required with STORAGE_DRIVER=s3',
  S3_REGION: 'S3 region (signing region for S3-compatible services)',
  S3_ACCESS_KEY_ID: 'S3 access key; required with STORAGE_DRIVER=s3',
  S3_SECRET_ACCESS_KEY: 'S3 secret key; required with STORAGE_DRIVER=s3',
  S3_FORCE_PATH_STYLE:
    'true: endpoint/bucket/key URLs (most self-hosted S3 services); false: bucket.endpoint',
  S3_KEY_PREFIX: "prefix of every key in the bucket, ending in '/' (dojo/); unset: none",
  APP_CHECK_ENFORCED: 'require an App Check token on storage requests (true or false)',
  OUTBOUND_ALLOW_PRIVATE:
    "let requests the server makes to URLs others chose (a sign-in provider's picture) reach loopback, private and link-local addresses (true or false)",
  AUTH_RATE_LIMIT_PER_MINUTE: 'login and signup attempts per client address per minute',
  TRUST_PROXY:
    'addresses / CIDR ranges of the proxies whose X-Forwarded-* are believed (127.0.0.1,10.0.0.0/8); no hop counts; unset: none',
  LOGIN_FAILURES_PER_ACCOUNT: 'failed logins per account per 15 minutes, over every address and instance',
  PRESENCE_GRACE_MS: 'a user without open tabs goes offline within this time',
  NOTIFICATION_TIME_ZONE:
    "IANA time zone whose calendar days decide 'due tomorrow' and 'overdue' (Europe/Paris); default UTC",
  DUE_REMINDER_INTERVAL_MS: 'how often each instance looks for projects due tomorrow or overdue',
  DIGEST_HOUR:
    'hour of the day (0-23, in NOTIFICATION_TIME_ZONE) at which daily notification digests are emailed',
  LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: 'live subscriptions one WebSocket may hold (per instance)',
  LIVE_MAX_SOCKETS_PER_SESSION: 'live WebSockets one session (browser) may hold (per instance)',
  LIVE_MAX_SOCKETS_PER_USER: 'live WebSockets one user may hold (per instance)',
  PROJECT_CREATES_PER_MINUTE:
    'projects each user may create per minute (shared by every instance on PostgreSQL)',
  COMMENTS_PER_MINUTE: 'comments each user may add per minute (shared by every instance on PostgreSQL)',
  UPLOADS_PER_MINUTE: 'uploads each user may start per minute (shared by every instance on PostgreSQL)',
  EXPORTS_PER_MINUTE:
    'spreadsheet exports each user may start per minute, per list (shared by every instance on PostgreSQL)',
  WRITES_PER_MINUTE:
    'every other write (edit, complete, delete, profile, sign-out, admin change…) each user may make per minute, per route (shared by every instance on PostgreSQL)',
  MAX_CONNECTIONS_PER_ADDRESS:
    "open connections per client address (the proxy's address behind a proxy: raise it there, see docs/security.md)",
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace, or silent',
  SIGNUP_POLICY:
    'who may sign up until an admin changes it in the app: open, invitation (a fresh install then logs a one-time setup link for its first admin, see docs/deploy.md), or domains (with SIGNUP_EMAIL_DOMAINS)',
  SIGNUP_EMAIL_DOMAINS: 'comma-separated email domains for SIGNUP_POLICY=domains (example.com,example.org)',
  SMTP_URL:
    "smtp://user:pass@host:587 or smtps://…: enables 'Forgot password?' and notification emails (needs PUBLIC_URL); unset: admins create reset links",
  SMTP_FROM: 'the From address of emails the server sends',
  OIDC_PROVIDERS:
    'comma-separated ids of OpenID Connect providers for single sign-on (corp,google), each with the OIDC_<ID>_* variables below (needs PUBLIC_URL); unset: none',
};

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset means the embedded SQLite database at `$DATA_DIR/dojo.sqlite`. */
  databaseUrl: string | undefined;
  /**
   * The only base of links the server emails, and of absolute download and upload URLs; unset, the URLs it
   * returns are relative. Never taken from a request's headers (docs/decisions/043-links-from-configuration.md).
   */
  publicUrl: string | undefined;
  storageBucket: string;
  /** Bytes each user may keep under `files/{uid}/`. */
  storageQuotaBytes: number;
  /** The largest file one attachment may be (docs/decisions/073-attachments.md). */
  attachmentMaxBytes: number;
  /** How long an upload to an attachment area may stay unregistered before the sweep deletes it. */
  attachmentUnregisteredGraceMs: number;
  /** How often that sweep runs; not in the environment, tests shorten it. */
  attachmentSweepIntervalMs: number;
  /** How long an unfinished resumable upload lives after its start (it reserves quota until then). */
  storageUploadSessionTtlMs: number;
  /** Where file bytes live (create-blob-store.ts). */
  blobStorage: BlobStorageConfig;
  appCheckEnforced: boolean;
  /** Whether outbound requests to URLs others chose may reach private addresses (core/outbound-http.ts). */
  outboundAllowPrivate: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /** Where the production web build lives; unset serves no web app (API-only tests). */
  webRoot: string | undefined;
  /** Login and signup attempts allowed per client address per minute. */
  authRateLimitPerMinute: number;
  /** Which proxies' `X-Forwarded-*` headers are believed (client address, scheme, host). */
  trustProxy: TrustProxy;
  /** Set: `GET /metrics` answers with this bearer token; unset: metrics are off and prom-client never loads. */
  metricsToken: string | undefined;
  /** Failed logins allowed per account (email) per window, counted over every instance and address. */
  loginFailuresPerAccount: number;
  /** How long a user stays online after their last live connection closes without a logout. */
  presenceGraceMs: number;
  /** Whose calendar day decides 'due tomorrow' and 'overdue'. */
  notificationTimeZone: string;
  dueReminderIntervalMs: number;
  /** Hour (0-23) in `notificationTimeZone` at which the daily email digest goes out. */
  digestHour: number;
  /** Safety sweep of the notification email outbox; new notifications wake it through the change bus. */
  notificationEmailIntervalMs: number;
  /** Safety sweep of queued notifications that no instance ran (it stopped first); see NotificationJobs. */
  notificationJobSweepMs: number;
  /** Outgoing webhooks (docs/decisions/077-webhook-delivery-guarantees.md): how often each instance looks for due deliveries. */
  webhookPollMs: number;
  /** The first retry's wait after a failed delivery; each next one doubles, up to an hour. */
  webhookRetryBaseMs: number;
  /** Failed attempts in a row after which an endpoint is disabled. */
  webhookDisableAfterFailures: number;
  /** How long an instance trusts its list of heard events when a one-statement write asks (0: never). */
  webhookListenersCacheMs: number;
  /**
   * Test only (NODE_ENV=test): a file holding an ISO time that the due-reminder clock reads instead of the
   * real time, so tests move a running server past midnight (decision 026). Ignored otherwise.
   */
  testClockFile: string | undefined;
  /** Live caps, per instance: subscriptions per socket, sockets per session and per user. */
  liveMaxSubscriptionsPerSocket: number;
  liveMaxSocketsPerSession: number;
  liveMaxSocketsPerUser: number;
  /** Writes each user may make per minute (shared by every instance on PostgreSQL). */
  projectCreatesPerMinute: number;
  commentsPerMinute: number;
  uploadsPerMinute: number;
  /** Exports each user may start per minute, each list its own budget. */
  exportsPerMinute: number;
  /** Every other state-changing route, each its own budget (docs/decisions/045-every-write-limited-per-user.md). */
  writesPerMinute: number;
  /** Open TCP connections allowed per peer address (the proxy's address behind a proxy). */
  maxConnectionsPerAddress: number;
  /** Who may sign up on a fresh install; admins change it in the app after that. */
  initialSignupPolicy: SignupPolicy;
  /** Where emails go out (password resets); unset sends none. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** HTTP timeouts (src/common/limits.ts); not in the environment, tests shorten them. */
  httpTimeouts: HttpTimeouts;
  /**
   * How long without a request (monitors' aside) before cached bodies and SQLite's page cache are given
   * back (docs/decisions/030-idle-footprint-cuts.md); not in the environment, tests shorten it.
   */
  quietReleaseMs: number;
  /** OpenID Connect providers for single sign-on (OIDC_PROVIDERS); empty: none. */
  oidcProviders: OidcProviderConfig[];
  /**
   * Seconds of leeway when checking an ID token's times; not in the environment (openid-client's 30 s
   * default), tests set 0 to see an expired token refused.
   */
  oidcClockToleranceSeconds: number;
}

export type BlobStorageConfig = { driver: 'disk' } | ({ driver: 's3' } & S3StorageConfig);

export interface S3StorageConfig {
  /** Unset: AWS S3 itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Empty or ending in '/'; prepended to every key, so one bucket can hold several installs or other data. */
  keyPrefix: string;
}

/** The S3 settings are checked together: naming every missing one at start beats a failing first upload. */
function blobStorageOf(values: z.infer<typeof EnvSchema>): BlobStorageConfig {
  if (values.STORAGE_DRIVER === 'disk') return { driver: 'disk' };
  const required = {
    S3_BUCKET: values.S3_BUCKET,
    S3_ACCESS_KEY_ID: values.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: values.S3_SECRET_ACCESS_KEY,
  };
  const missing = Object.entries(required).filter(([, value]) => value === undefined);
  if (missing.length > 0) {
    throw new ConfigError(missing.map(([name]) => `${name}: required when STORAGE_DRIVER=s3`));
  }
  return {
    driver: 's3',
    endpoint: values.S3_ENDPOINT,
    bucket: required.S3_BUCKET ?? '',
    region: values.S3_REGION,
    accessKeyId: required.S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: required.S3_SECRET_ACCESS_KEY ?? '',
    forcePathStyle: values.S3_FORCE_PATH_STYLE === 'true',
    keyPrefix: values.S3_KEY_PREFIX,
  };
}

export interface HttpTimeouts {
  headersMs: number;
  bodyMs: number;
  idleMs: number;
  keepAliveMs: number;
}

/** What sending email needs: a link in an email can only point at the configured `PUBLIC_URL`. */
export interface MailSettings {
  smtpUrl: string;
  from: string;
  publicUrl: string;
}

/**
 * The email settings, or none without `SMTP_URL`. Email without `PUBLIC_URL` is refused rather than
 * linked to whatever host a request named: a 'Forgot password?' request could otherwise mail a victim a
 * reset link to the sender's server (docs/decisions/043-links-from-configuration.md).
 */
export function mailSettingsOf(
  config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'publicUrl'>,
): MailSettings | undefined {
  const { smtpUrl, smtpFrom, publicUrl } = config;
  if (smtpUrl === undefined) return undefined;
  if (publicUrl === undefined) {
    throw new ConfigError([
      'SMTP_URL is set but PUBLIC_URL is not: set PUBLIC_URL to the address users open (https://dojo.example.com), the base of every emailed link',
    ]);
  }
  return { smtpUrl, from: smtpFrom, publicUrl };
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
  const initialSignupPolicy = SignupPolicySchema.safeParse({
    mode: values.SIGNUP_POLICY,
    domains: values.SIGNUP_EMAIL_DOMAINS?.split(',') ?? [],
  });
  if (!initialSignupPolicy.success) {
    throw new ConfigError(
      initialSignupPolicy.error.issues.map((issue) => `SIGNUP_EMAIL_DOMAINS: ${issue.message}`),
    );
  }
  const publicUrl = values.PUBLIC_URL?.replace(/\/$/, '');
  const oidc = oidcProvidersOf(values.OIDC_PROVIDERS, env, publicUrl);
  if (oidc.problems.length > 0) throw new ConfigError(oidc.problems);
  const config: Config = {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    publicUrl,
    storageBucket: values.STORAGE_BUCKET,
    storageQuotaBytes: values.STORAGE_QUOTA_BYTES,
    attachmentMaxBytes: values.ATTACHMENT_MAX_BYTES,
    attachmentUnregisteredGraceMs: Math.round(values.ATTACHMENT_UNREGISTERED_HOURS * 60 * 60 * 1000),
    attachmentSweepIntervalMs: 60 * 60 * 1000,
    storageUploadSessionTtlMs: values.STORAGE_UPLOAD_TTL_MS,
    blobStorage: blobStorageOf(values),
    appCheckEnforced: values.APP_CHECK_ENFORCED === 'true',
    outboundAllowPrivate: values.OUTBOUND_ALLOW_PRIVATE === 'true',
    logLevel: values.LOG_LEVEL,
    webRoot: path.resolve('dist/web'),
    authRateLimitPerMinute: values.AUTH_RATE_LIMIT_PER_MINUTE,
    trustProxy: values.TRUST_PROXY,
    metricsToken: values.METRICS_TOKEN,
    loginFailuresPerAccount: values.LOGIN_FAILURES_PER_ACCOUNT,
    presenceGraceMs: values.PRESENCE_GRACE_MS,
    notificationTimeZone: values.NOTIFICATION_TIME_ZONE,
    dueReminderIntervalMs: values.DUE_REMINDER_INTERVAL_MS,
    digestHour: values.DIGEST_HOUR,
    notificationEmailIntervalMs: 60_000,
    notificationJobSweepMs: 60_000,
    webhookPollMs: 5_000,
    webhookRetryBaseMs: 10_000,
    webhookDisableAfterFailures: 20,
    webhookListenersCacheMs: 1_000,
    testClockFile: env.NODE_ENV === 'test' ? env.DOJO_TEST_CLOCK_FILE : undefined,
    liveMaxSubscriptionsPerSocket: values.LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
    liveMaxSocketsPerSession: values.LIVE_MAX_SOCKETS_PER_SESSION,
    liveMaxSocketsPerUser: values.LIVE_MAX_SOCKETS_PER_USER,
    projectCreatesPerMinute: values.PROJECT_CREATES_PER_MINUTE,
    commentsPerMinute: values.COMMENTS_PER_MINUTE,
    uploadsPerMinute: values.UPLOADS_PER_MINUTE,
    exportsPerMinute: values.EXPORTS_PER_MINUTE,
    writesPerMinute: values.WRITES_PER_MINUTE,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    initialSignupPolicy: initialSignupPolicy.data,
    smtpUrl: values.SMTP_URL,
    smtpFrom: values.SMTP_FROM,
    httpTimeouts: {
      headersMs: HTTP_HEADERS_TIMEOUT_MS,
      bodyMs: HTTP_BODY_TIMEOUT_MS,
      idleMs: HTTP_IDLE_TIMEOUT_MS,
      keepAliveMs: HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    quietReleaseMs: 10_000,
    oidcProviders: oidc.providers,
    oidcClockToleranceSeconds: 30,
  };
  mailSettingsOf(config);
  return config;
}

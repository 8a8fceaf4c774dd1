import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { JSON_BODY_MAX_BYTES, messages } from '../common';
import { registerAuthRoutes } from './auth/auth-routes';
import { SESSION_COOKIE } from './auth/viewer';
import type { Config } from './config/config';
import { openDatabase, type DatabaseHandle } from './db/database';
import { notifyChannel, pingDatabase } from './db/database-repository';
import { AppError } from './core/app-error';
import { API_VERSION, buildOpenApiDocument, openApiRouteDoc } from './http/api-docs';
import { authRouteDocs } from './auth/auth-route-docs';
import { registerSecondStepRoutes } from './auth/second-step/second-step-routes';
import { secondStepRouteDocs } from './auth/second-step/second-step-route-docs';
import { liveRouteDocs } from './live/live-route-docs';
import { notificationEmailRouteDocs } from './notifications/email-route-docs';
import { registerNotificationEmailRoutes } from './notifications/email-routes';
import { projectsRouteDocs } from './projects/projects-route-docs';
import { searchRouteDocs } from './search/search-route-docs';
import { exportsRouteDocs } from './exports/exports-route-docs';
import { storageRouteDocs } from './storage/protocol/storage-route-docs';
import { usersRouteDocs } from './users/users-route-docs';
import { registerErrorHandler } from './http/error-handler';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  httpServerOptions,
  limitConnectionsPerAddress,
} from './http/connection-guards';
import { limitBodyTime, readJsonInUtf8Only, settleUnreadBody } from './http/request-body';
import { isCrossSiteRequest } from './http/origin';
import { createSharedRateLimitStore } from './http/rate-limit-store';
import { limitEveryWrite } from './http/write-rate-limit';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import { LocalChangeBus, PostgresChangeBus, type ChangeBus } from './db/change-bus';
import { LiveHub } from './live/live-hub';
import { acceptLiveUpgrades, registerLiveHttpRoute } from './live/live-upgrade';
import { registerStorageRoutes } from './storage/protocol/storage-routes';
import { scheduleStorageSweeps } from './storage/uploads/storage-sweeper';
import { usersLiveSource } from './users/users-live-source';
import { registerUsersRoutes } from './users/users-routes';
import { registerTeamRoutes } from './team/team-routes';
import { teamRouteDocs } from './team/team-route-docs';
import { registerAccountRoutes } from './account/account-routes';
import { accountRouteDocs } from './account/account-route-docs';
import { registerAppearanceRoutes } from './account/appearance-routes';
import { appearanceRouteDocs } from './account/appearance-route-docs';
import { registerPasskeyRoutes } from './passkeys/passkeys-routes';
import { passkeysRouteDocs } from './passkeys/passkeys-route-docs';
import { refuseWhatApiTokensMayNotDo, registerApiTokensRoutes } from './api-tokens/api-tokens-routes';
import { apiTokensRouteDocs } from './api-tokens/api-tokens-route-docs';
import { registerWebhooksRoutes } from './webhooks/webhooks-routes';
import { webhooksRouteDocs } from './webhooks/webhooks-route-docs';
import { registerTrelloImportRoutes } from './trello-import/trello-import-routes';
import { trelloImportRouteDocs } from './trello-import/trello-import-route-docs';
import { registerCalendarFeedRoutes } from './calendar-feed/calendar-feed-routes';
import { calendarFeedRouteDocs } from './calendar-feed/calendar-feed-route-docs';
import { registerSingleSignOnRoutes } from './single-sign-on/single-sign-on-routes';
import { singleSignOnRouteDocs } from './single-sign-on/single-sign-on-route-docs';
import { projectsLiveSource } from './projects/projects-live-source';
import { commentsLiveSource } from './comments/comments-live-source';
import { attachmentsLiveSource } from './attachments/attachments-live-source';
import { registerAttachmentsRoutes } from './attachments/attachments-routes';
import { attachmentsRouteDocs } from './attachments/attachments-route-docs';
import { registerCommentsRoutes } from './comments/comments-routes';
import { commentsRouteDocs } from './comments/comments-route-docs';
import { registerProjectsRoutes } from './projects/projects-routes';
import { registerSearchRoutes } from './search/search-routes';
import { registerExportsRoutes } from './exports/exports-routes';
import { notificationsLiveSource } from './notifications/notifications-live-source';
import { notificationsRouteDocs } from './notifications/notifications-route-docs';
import { registerNotificationsRoutes } from './notifications/notifications-routes';
import { createServices, type Services } from './services';
import { echoRequestIds, requestIdOf } from './ops/request-ids';
import { registerMetrics, registerReadinessRoute } from './ops/ops-routes';
import { opsRouteDocs } from './ops/ops-route-docs';
import type { Metrics } from './core/metrics';
import { preparePrivateDataDir } from './core/private-files';
import { releaseWhenQuiet } from './core/quiet-release';
import { loadMallocTrim } from './core/malloc-trim';
import { compactHeap } from './core/compact-heap';
import { serverLogging, type LogDestination } from './core/logger';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long after the quiet release's collection the C allocator is trimmed. */
const TRIM_AFTER_COMPACTION_MS = 1000;
/** Routes of the storage protocol, by their registered pattern (never by the raw request URL). */
const STORAGE_ROUTE_PREFIX = '/v0/';

export interface DojoApp {
  server: FastifyInstance;
  config: Config;
  /** Starts listening on config.host:config.port; resolves to the base URL. */
  listen(): Promise<string>;
  /** Every route registered, for the OpenAPI coverage test. */
  registeredRoutes(): { method: string; url: string }[];
  /** Stops accepting, lets in-flight requests finish, closes sockets and the database. */
  close(): Promise<void>;
}

/**
 * Builds the whole server from config. No side effects happen before this is called. Reads as a table of
 * contents: each step is a named function below, in the order it must run.
 */
export async function createApp(
  config: Config,
  options: {
    /** Where the log goes instead of stdout (tests read it). */
    logDestination?: LogDestination;
  } = {},
): Promise<DojoApp> {
  const tightened = preparePrivateDataDir(config.dataDir);
  const database = await openDatabase(config);
  const bus = await openChangeBus(database);
  const server = createServer(config, options.logDestination);
  if (tightened.length > 0) {
    server.log.warn({ tightened }, 'DATA_DIR was open to other users: its permissions were tightened');
  }
  const routes = recordRoutes(server);
  const services = await createServices({ config, database, bus, log: server.log });
  await services.signupPolicy.logSetupLinkIfNeeded(config.publicUrl, server.log);
  const metrics = await loadMetrics(config, () => hub);
  const hub = createLiveHub({ config, bus, services, log: server.log, metrics, database });

  echoRequestIds(server);
  releaseMemoryWhenQuiet(server, config.quietReleaseMs, database, services, metrics);
  if (metrics && config.metricsToken) registerMetrics(server, metrics, config.metricsToken);
  registerErrorHandler(server);
  registerSecurityHeaders(server, config);
  // Before the rate-limit plugin, whose own onRoute hook reads the limit this one gives every write route.
  limitEveryWrite(server, services.viewers, config.writesPerMinute);
  await registerPlugins(server, database, services);
  refuseCrossSiteWrites(server, config.publicUrl);
  refuseWhatApiTokensMayNotDo(server, services.viewers);
  guardRequestBodies(server, config);
  answerOnlyWhenDurable(server, database);
  registerApiRoutes(server, config, database, services);
  const liveUpgrades = acceptLiveUpgrades({
    server: server.server,
    hub,
    resolveViewer: (request) =>
      services.viewers.viewerOfHeaders(request.headers, server.parseCookie(request.headers.cookie ?? '')),
    log: server.log,
  });
  await registerWebApp(server, config.webRoot);
  registerLifecycle(server, {
    database,
    bus,
    presence: services.presence,
    dueReminders: services.dueReminders,
    notificationJobs: services.notificationJobs,
    notificationEmail: services.notificationEmail,
    webhookDispatcher: services.webhookDispatcher,
    trelloImportRunner: services.trelloImportRunner,
    projectViewers: services.projectViewers,
    mailer: services.mailer,
    blobStore: services.blobStore,
    storageSweeps: scheduleStorageSweeps(services.storageSweeper, server.log, [
      {
        name: 'unregistered attachment uploads sweep',
        intervalMs: config.attachmentSweepIntervalMs,
        sweep: () => services.attachments.sweepUnregistered(),
      },
    ]),
    stopLive: () => {
      liveUpgrades.stop();
      hub.close();
    },
  });

  return {
    server,
    config,
    async listen() {
      await server.listen({ port: config.port, host: config.host });
      const { port } = server.server.address() as AddressInfo;
      const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
      return `http://${host}:${port}`;
    },
    registeredRoutes: () => [...routes],
    close: () => server.close(),
  };
}

/** prom-client is loaded only when metrics are on: it and its collectors cost idle memory. */
async function loadMetrics(config: Config, live: () => LiveHub): Promise<Metrics | undefined> {
  if (!config.metricsToken) return undefined;
  const { createPrometheusMetrics } = await import('./ops/prometheus-metrics');
  return createPrometheusMetrics(live);
}

/** PostgreSQL NOTIFY between instances, or in-process on SQLite; the database is closed if that fails. */
async function openChangeBus(database: DatabaseHandle): Promise<ChangeBus> {
  if (!database.postgresUrl) return new LocalChangeBus();
  try {
    return await PostgresChangeBus.start(database.postgresUrl, (channel, payload, within) =>
      notifyChannel(within ?? database.db, channel, payload),
    );
  } catch (error) {
    await database.close();
    throw error;
  }
}

function createServer(config: Config, logDestination: LogDestination | undefined): FastifyInstance {
  // Tokens travel in URLs: the log shows route patterns and redacted queries only (core/logger.ts).
  const logging = serverLogging(config.logLevel, logDestination);
  const server = Fastify({
    logger: logging.options,
    bodyLimit: JSON_BODY_MAX_BYTES,
    genReqId: requestIdOf,
    forceCloseConnections: 'idle',
    // Only the proxies the operator names may set the client's address, scheme and host.
    trustProxy: config.trustProxy,
    ...httpServerOptions(config.httpTimeouts),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
    // Routes parse their input with the zod schemas of src/common, and no route gives Fastify a JSON
    // schema. Without these, Fastify would load Ajv and fast-json-stringify at start for nothing
    // (docs/decisions/039-no-driver-at-start.md).
    schemaController: { compilersFactory: { buildValidator: noJsonSchemas, buildSerializer: noJsonSchemas } },
  });
  server.addHook('onRoute', (route) => logging.learnRoute(route.url));
  readJsonInUtf8Only(server);
  limitConnectionsPerAddress(server.server, config.maxConnectionsPerAddress, server.log);
  return server;
}

/** Fastify's compilers for JSON schemas, which the server does not use: a route that brings one fails at start. */
function noJsonSchemas(): never {
  throw new Error('routes validate with the zod schemas of src/common, not with Fastify JSON schemas');
}

/** The routes as they are registered (read by `registeredRoutes`). */
function recordRoutes(server: FastifyInstance): { method: string; url: string }[] {
  const routes: { method: string; url: string }[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  return routes;
}

function createLiveHub(deps: {
  config: Config;
  bus: ChangeBus;
  services: Services;
  log: FastifyBaseLogger;
  metrics: Metrics | undefined;
  database: DatabaseHandle;
}): LiveHub {
  const { config, services, log, metrics } = deps;
  const { presence, projectViewers } = services;
  const reportPresenceError = (error: unknown) => log.error({ err: error }, 'presence update failed');
  return new LiveHub({
    bus: deps.bus,
    sources: {
      users: usersLiveSource(services.users),
      projects: projectsLiveSource(services.projects),
      comments: commentsLiveSource(services.comments),
      attachments: attachmentsLiveSource(services.attachments),
      notifications: notificationsLiveSource(services.notifications),
      project_viewers: projectViewers.liveSource(),
    },
    log,
    limits: {
      maxSubscriptionsPerSocket: config.liveMaxSubscriptionsPerSocket,
      maxSocketsPerSession: config.liveMaxSocketsPerSession,
      maxSocketsPerUser: config.liveMaxSocketsPerUser,
    },
    ...(metrics ? { metrics } : {}),
    markCommits: deps.database.markCommits,
    events: {
      onConnectionOpened: (viewer) => void presence.connectionOpened(viewer).catch(reportPresenceError),
      onConnectionClosed: (viewer) => void presence.connectionClosed(viewer).catch(reportPresenceError),
      onSubscriptionStarted: (key, viewer, target) => projectViewers.subscriptionStarted(key, viewer, target),
      onSubscriptionEnded: (key) => projectViewers.subscriptionEnded(key),
    },
  });
}

async function registerPlugins(
  server: FastifyInstance,
  database: DatabaseHandle,
  services: Services,
): Promise<void> {
  await server.register(fastifyCookie);
  await server.register(fastifyMultipart, { throwFileSizeLimit: false });
  await server.register(fastifyRateLimit, {
    global: false,
    // Scale-out: one budget for every instance on the database, and a database error lets the request
    // through (logged) rather than refusing everyone (docs/decisions/009-shared-rate-limits.md).
    ...(database.dialect === 'postgres'
      ? {
          store: createSharedRateLimitStore({ counters: services.rateLimitCounters, log: server.log }),
          skipOnError: true,
        }
      : {}),
  });
}

/** Monitors poll these: they neither fill the caches nor say that anybody is using the server. */
const MONITOR_ROUTES = new Set(['/api/health', '/api/ready', '/metrics']);

/**
 * A small server is quiet most of the day: after `quietMs` without a request, the list and project bodies
 * it cached and SQLite's page cache go, so what serving left behind is not resident all day
 * (docs/decisions/030-idle-footprint-cuts.md, second addendum).
 */
function releaseMemoryWhenQuiet(
  server: FastifyInstance,
  quietMs: number,
  database: DatabaseHandle,
  services: Services,
  metrics: Metrics | undefined,
): void {
  const trimMalloc = loadMallocTrim();
  const quiet = releaseWhenQuiet({
    quietMs,
    release: () => {
      services.projects.dropCachedBodies();
      database.releaseMemory();
      // The dropped bodies' bytes are freed by this collection, which also packs the heap's pages.
      compactHeap();
      // Last, once SQLite and V8 freed what they held (V8 frees buffers' bytes just after the collection,
      // off the main thread): those pages, and the holes they kept, go back together.
      if (trimMalloc) setTimeout(trimMalloc, TRIM_AFTER_COMPACTION_MS).unref();
      metrics?.countQuietRelease();
    },
  });
  // Start-up is a burst too (modules compiled, schemas built, the first migrations): a server nobody uses
  // after it starts releases what that left, as it would after any burst (docs/decisions/037-idle-readings.md).
  quiet.touch();
  // Not async: every request passes here, and a promise per request shows on the cached list's throughput.
  server.addHook('onRequest', (request, _reply, done) => {
    if (!MONITOR_ROUTES.has(request.routeOptions.url ?? '')) quiet.touch();
    done();
  });
  // A live socket's upgrade never reaches Fastify's hooks, and 10,000 tabs opening is a burst as well.
  server.server.on('upgrade', () => quiet.touch());
  server.addHook('onClose', async () => quiet.stop());
}

/**
 * CSRF: a page on another site may make no state-changing request (login and signup included), on any
 * path however it is spelled. The one exception is a storage route called without the session cookie:
 * the storage SDK calls it cross-origin with an id token, which no other site's page holds
 * (docs/decisions/010-cross-site-requests-and-proxies.md).
 */
function refuseCrossSiteWrites(server: FastifyInstance, publicUrl: string | undefined): void {
  server.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !isCrossSiteRequest(request.headers, publicUrl)) return;
    const tokenOnlyStorageCall =
      request.routeOptions.url?.startsWith(STORAGE_ROUTE_PREFIX) === true &&
      request.cookies[SESSION_COOKIE] === undefined;
    if (!tokenOnlyStorageCall) throw new AppError('forbidden', messages.crossOrigin);
  });
}

function guardRequestBodies(server: FastifyInstance, config: Config): void {
  // Storage bodies (/v0) are streams of any length: no total deadline, only the idle timeout.
  server.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/v0/'))
      limitBodyTime(request, reply, config.httpTimeouts.bodyMs);
  });
  server.addHook('onSend', async (request, reply, payload) => {
    settleUnreadBody(request, reply);
    return payload;
  });
}

/**
 * Acknowledged means durable: no answer to a request that may have written leaves before its commit is
 * on disk (a group sync of SQLite's WAL; immediate on PostgreSQL). docs/decisions/014-durability.md.
 */
function answerOnlyWhenDurable(server: FastifyInstance, database: DatabaseHandle): void {
  server.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      await database.durable();
    }
    return payload;
  });
}

function registerApiRoutes(
  server: FastifyInstance,
  config: Config,
  database: DatabaseHandle,
  services: Services,
): void {
  const { auth, viewers, users, projects, storage, resumableUploads, appCheck } = services;
  // Built at the first request: converting every route's zod schemas to JSON Schema costs the memory of an
  // idle server that nobody asked for the document (docs/decisions/030-idle-footprint-cuts.md).
  const buildOpenApi = () =>
    buildOpenApiDocument(
      [
        ...authRouteDocs,
        ...secondStepRouteDocs,
        ...usersRouteDocs,
        ...teamRouteDocs,
        ...accountRouteDocs,
        ...appearanceRouteDocs,
        ...passkeysRouteDocs,
        ...apiTokensRouteDocs,
        ...webhooksRouteDocs,
        ...trelloImportRouteDocs,
        ...calendarFeedRouteDocs,
        ...singleSignOnRouteDocs,
        ...projectsRouteDocs,
        ...commentsRouteDocs,
        ...attachmentsRouteDocs,
        ...searchRouteDocs,
        ...exportsRouteDocs,
        ...notificationsRouteDocs,
        ...liveRouteDocs,
        ...storageRouteDocs,
        ...opsRouteDocs,
        ...notificationEmailRouteDocs,
        openApiRouteDoc,
      ],
      API_VERSION,
    );
  let openApi: ReturnType<typeof buildOpenApi> | undefined;
  server.get('/api/openapi.json', async () => (openApi ??= buildOpenApi()));

  server.get('/api/health', async () => {
    await pingDatabase(database.db);
    return { status: 'ok', database: database.dialect };
  });
  registerReadinessRoute(server, { database, blobs: services.blobs });
  registerAuthRoutes(server, {
    auth,
    secondStep: services.secondStep,
    viewers,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl,
  });
  registerSecondStepRoutes(server, {
    ...services,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl,
  });
  registerUsersRoutes(server, { users, viewers });
  registerTeamRoutes(server, services);
  registerAccountRoutes(server, { ...services, rateLimitPerMinute: config.authRateLimitPerMinute });
  registerAppearanceRoutes(server, { ...services, publicUrl: config.publicUrl });
  registerPasskeyRoutes(server, {
    ...services,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl,
  });
  registerApiTokensRoutes(server, services);
  registerWebhooksRoutes(server, services);
  registerTrelloImportRoutes(server, services);
  registerCalendarFeedRoutes(server, { ...services, publicUrl: config.publicUrl });
  registerSingleSignOnRoutes(server, {
    ...services,
    publicUrl: config.publicUrl,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    log: server.log,
  });
  registerProjectsRoutes(server, { projects, viewers, createsPerMinute: config.projectCreatesPerMinute });
  registerCommentsRoutes(server, {
    comments: services.comments,
    viewers,
    writesPerMinute: config.commentsPerMinute,
  });
  registerAttachmentsRoutes(server, {
    attachments: services.attachments,
    viewers,
    writesPerMinute: config.uploadsPerMinute,
  });
  registerSearchRoutes(server, { search: services.search, viewers });
  registerExportsRoutes(server, {
    exports: services.exports,
    viewers,
    publicUrl: config.publicUrl,
    exportsPerMinute: config.exportsPerMinute,
  });
  registerNotificationsRoutes(server, { notifications: services.notifications, viewers });
  registerStorageRoutes(server, { storage, resumableUploads, viewers, appCheck, config });
  registerLiveHttpRoute(server, viewers);
  registerNotificationEmailRoutes(server, services);
}

/** Start the presence sweep when ready; on close, end live sockets, then the bus, then the database. */
function registerLifecycle(
  server: FastifyInstance,
  deps: {
    database: DatabaseHandle;
    bus: ChangeBus;
    presence: Services['presence'];
    dueReminders: Services['dueReminders'];
    notificationJobs: Services['notificationJobs'];
    notificationEmail: Services['notificationEmail'];
    webhookDispatcher: Services['webhookDispatcher'];
    trelloImportRunner: Services['trelloImportRunner'];
    projectViewers: Services['projectViewers'];
    storageSweeps: ReturnType<typeof scheduleStorageSweeps>;
    stopLive: () => void;
    mailer: Services['mailer'];
    blobStore: Services['blobStore'];
  },
): void {
  // Once shutdown starts, a response ends its connection: keep-alive sockets that finish a request after
  // close() began would otherwise hold the process open until their keep-alive timeout.
  let closing = false;
  server.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  server.addHook('onReady', async () => {
    deps.presence.start();
    deps.dueReminders.start();
    deps.notificationJobs.start();
    deps.notificationEmail?.start();
    deps.webhookDispatcher.start();
    deps.trelloImportRunner.start();
    deps.projectViewers.start();
    deps.storageSweeps.start();
  });
  server.addHook('preClose', async () => {
    closing = true;
    deps.stopLive();
    await deps.presence.stop();
    await deps.dueReminders.stop();
    await deps.notificationJobs.stop();
    await deps.notificationEmail?.stop();
    await deps.webhookDispatcher.stop();
    await deps.trelloImportRunner.stop();
    await deps.projectViewers.stop();
    await deps.storageSweeps.stop();
  });
  server.addHook('onClose', async () => {
    deps.mailer?.close();
    deps.blobStore.close();
    await deps.bus.close();
    await deps.database.close();
  });
}

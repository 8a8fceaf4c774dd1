import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import path from 'node:path';
import { sql } from 'kysely';
import type { AddressInfo } from 'node:net';
import { JSON_BODY_MAX_BYTES, messages } from '../common';
import { AuthService } from './auth/auth-service';
import { registerAuthRoutes } from './auth/auth-routes';
import { IdTokens } from './auth/id-tokens';
import { LoginFailureLimit } from './auth/login-failures';
import { SessionCache } from './auth/session-cache';
import { createViewerResolver, SESSION_COOKIE } from './auth/viewer';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { AppError } from './shared/app-error';
import { API_VERSION, buildOpenApiDocument, openApiRouteDoc } from './http/api-docs';
import { authRouteDocs } from './auth/auth-route-docs';
import { liveRouteDocs } from './live/live-route-docs';
import { projectsRouteDocs } from './projects/projects-route-docs';
import { storageRouteDocs } from './storage/storage-route-docs';
import { usersRouteDocs } from './users/users-route-docs';
import { registerErrorHandler } from './http/error-handler';
import {
  clientErrorHandler,
  frameworkErrorHandler,
  httpServerOptions,
  limitConnectionsPerAddress,
} from './http/connection-guards';
import { limitBodyTime, settleUnreadBody } from './http/request-body';
import { isCrossSiteRequest } from './http/origin';
import { RateLimitCounters } from './rate-limits/rate-limits-repository';
import { createSharedRateLimitStore } from './http/rate-limit-store';
import { registerSecurityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import { LocalChangeBus, PostgresChangeBus, type ChangeBus } from './live/change-bus';
import { LiveHub } from './live/live-hub';
import { acceptLiveUpgrades, registerLiveHttpRoute } from './live/live-upgrade';
import { HmacAppCheckTokens } from './storage/app-check';
import { LocalDiskBlobStore } from './storage/blob-store';
import { registerStorageRoutes } from './storage/storage-routes';
import { StorageService } from './storage/storage-service';
import { usersLiveSource } from './users/users-live-source';
import { registerUsersRoutes } from './users/users-routes';
import { UsersService } from './users/users-service';
import { PresenceService } from './presence/presence-service';
import { commentsLiveSource, projectsLiveSource } from './projects/projects-live-source';
import { registerProjectsRoutes } from './projects/projects-routes';
import { ProjectsService } from './projects/projects-service';
import { newId } from './shared/ids';
import { preparePrivateDataDir } from './shared/private-files';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
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

/** Builds the whole server from config. No side effects happen before this is called. */
export async function createApp(config: Config): Promise<DojoApp> {
  const tightened = preparePrivateDataDir(config.dataDir);
  const database = await openDatabase(config);
  const { db } = database;
  let bus: ChangeBus;
  try {
    bus = database.postgresUrl
      ? await PostgresChangeBus.start(database.postgresUrl, async (channel, payload) => {
          await sql`select pg_notify(${channel}, ${payload})`.execute(db);
        })
      : new LocalChangeBus();
  } catch (error) {
    await database.close();
    throw error;
  }

  const server = Fastify({
    logger: {
      level: config.logLevel,
      serializers: {
        // Download tokens grant read access: keep them out of logs.
        req: (request) => ({
          method: request.method,
          url: request.url.replace(/([?&]token=)[^&]*/g, '$1[redacted]'),
          remoteAddress: request.ip,
        }),
      },
    },
    bodyLimit: JSON_BODY_MAX_BYTES,
    forceCloseConnections: 'idle',
    // Only the proxies the operator names may set the client's address, scheme and host.
    trustProxy: config.trustProxy,
    ...httpServerOptions(config.httpTimeouts),
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  limitConnectionsPerAddress(server.server, config.maxConnectionsPerAddress, server.log);
  if (tightened.length > 0) {
    server.log.warn({ tightened }, 'DATA_DIR was open to other users: its permissions were tightened');
  }

  const routes: { method: string; url: string }[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });

  const idTokens = await IdTokens.load(db);
  const sessions = new SessionCache(bus);
  const viewers = createViewerResolver({ db, idTokens, publicUrl: config.publicUrl, sessions });
  const storage = new StorageService({
    db,
    dialect: database.dialect,
    blobs: new LocalDiskBlobStore(path.join(config.dataDir, 'storage')),
    bucket: config.storageBucket,
    publicUrl: config.publicUrl,
    quotaBytes: config.storageQuotaBytes,
    uploadSessionTtlMs: config.storageUploadSessionTtlMs,
  });
  const presence = new PresenceService({
    db,
    changes: bus,
    instanceId: newId(),
    graceMs: config.presenceGraceMs,
    log: server.log,
  });
  const rateLimitCounters = new RateLimitCounters({ db, dialect: database.dialect, log: server.log });
  const loginFailures = new LoginFailureLimit({
    counters: rateLimitCounters,
    maxFailures: config.loginFailuresPerAccount,
    log: server.log,
  });
  const auth = new AuthService({
    db,
    storage,
    idTokens,
    changes: bus,
    sessions,
    presence,
    log: server.log,
    loginFailures,
  });
  const projects = new ProjectsService({ db, changes: bus });
  const users = new UsersService({ db });
  const reportPresenceError = (error: unknown) => server.log.error({ err: error }, 'presence update failed');
  const hub = new LiveHub({
    db,
    bus,
    sources: { users: usersLiveSource(users), projects: projectsLiveSource, comments: commentsLiveSource },
    log: server.log,
    limits: {
      maxSubscriptionsPerSocket: config.liveMaxSubscriptionsPerSocket,
      maxSocketsPerSession: config.liveMaxSocketsPerSession,
      maxSocketsPerUser: config.liveMaxSocketsPerUser,
    },
    events: {
      onConnectionOpened: (viewer) => void presence.connectionOpened(viewer).catch(reportPresenceError),
      onConnectionClosed: (viewer) => void presence.connectionClosed(viewer).catch(reportPresenceError),
    },
  });

  registerErrorHandler(server);
  registerSecurityHeaders(server, config);
  await server.register(fastifyCookie);
  await server.register(fastifyMultipart, { throwFileSizeLimit: false });
  await server.register(fastifyRateLimit, {
    global: false,
    // Scale-out: one budget for every instance on the database, and a database error lets the request
    // through (logged) rather than refusing everyone (docs/decisions/009-shared-rate-limits.md).
    ...(database.dialect === 'postgres'
      ? {
          store: createSharedRateLimitStore({ counters: rateLimitCounters, log: server.log }),
          skipOnError: true,
        }
      : {}),
  });

  // CSRF: a page on another site may make no state-changing request (login and signup included), on any
  // path however it is spelled. The one exception is a storage route called without the session cookie:
  // the storage SDK calls it cross-origin with an id token, which no other site's page holds
  // (docs/decisions/010-cross-site-requests-and-proxies.md).
  server.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !isCrossSiteRequest(request.headers, config.publicUrl)) return;
    const tokenOnlyStorageCall =
      request.routeOptions.url?.startsWith(STORAGE_ROUTE_PREFIX) === true &&
      request.cookies[SESSION_COOKIE] === undefined;
    if (!tokenOnlyStorageCall) throw new AppError('forbidden', messages.crossOrigin);
  });

  // Storage bodies (/v0) are streams of any length: no total deadline, only the idle timeout.
  server.addHook('onRequest', async (request, reply) => {
    if (!request.routeOptions.url?.startsWith('/v0/'))
      limitBodyTime(request, reply, config.httpTimeouts.bodyMs);
  });
  server.addHook('onSend', async (request, reply, payload) => {
    settleUnreadBody(request, reply);
    return payload;
  });

  // Acknowledged means durable: no answer to a request that may have written leaves before its commit is
  // on disk (a group sync of SQLite's WAL; immediate on PostgreSQL). docs/decisions/014-durability.md.
  server.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
      await database.durable();
    }
    return payload;
  });

  const openApi = buildOpenApiDocument(
    [
      ...authRouteDocs,
      ...usersRouteDocs,
      ...projectsRouteDocs,
      ...liveRouteDocs,
      ...storageRouteDocs,
      openApiRouteDoc,
    ],
    API_VERSION,
  );
  server.get('/api/openapi.json', async () => openApi);

  server.get('/api/health', async () => {
    await sql`select 1`.execute(db);
    return { status: 'ok', database: database.dialect };
  });
  registerAuthRoutes(server, {
    auth,
    viewers,
    rateLimitPerMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl,
  });
  registerUsersRoutes(server, { users, viewers });
  registerProjectsRoutes(server, {
    projects,
    viewers,
    rateLimits: { creates: config.projectCreatesPerMinute, comments: config.commentsPerMinute },
  });
  registerStorageRoutes(server, { storage, viewers, appCheck: new HmacAppCheckTokens(db), config });
  registerLiveHttpRoute(server, viewers);
  const liveUpgrades = acceptLiveUpgrades({
    server: server.server,
    hub,
    resolveViewer: (request) =>
      viewers.viewerOfHeaders(request.headers, server.parseCookie(request.headers.cookie ?? '')),
    log: server.log,
  });
  await registerWebApp(server, config.webRoot);

  // Once shutdown starts, a response ends its connection: keep-alive sockets that finish a request after
  // close() began would otherwise hold the process open until their keep-alive timeout.
  let closing = false;
  server.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  server.addHook('onReady', async () => presence.start());
  server.addHook('preClose', async () => {
    closing = true;
    liveUpgrades.stop();
    hub.close();
    await presence.stop();
  });
  server.addHook('onClose', async () => {
    await bus.close();
    await database.close();
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

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { LIVE_PATH, messages } from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { Viewer } from '../core/viewer';
import { AppError, notFound, unauthenticated } from '../core/app-error';
import { refuseSocket as refuse } from '../http/error-handler';
import type { LiveHub } from './live-hub';
import { faultOf } from '../db/fault-errors';

/** Client messages are small JSON commands; anything larger is refused by `ws` with close code 1009. */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

const ignoreSocketError = (): void => undefined;

/**
 * Takes `/live` WebSocket upgrades straight from the HTTP server, outside Fastify's request cycle. A live
 * socket stays open for hours; going through a Fastify route would keep that route's request and reply
 * objects alive for as long (a few KiB per idle tab, see docs/benchmarks.md). The viewer is resolved from
 * the raw request exactly as for API calls, and a request without a live session is refused with 401
 * before the upgrade.
 */
export function acceptLiveUpgrades(deps: {
  server: Server;
  hub: LiveHub;
  resolveViewer: (request: IncomingMessage) => Promise<Viewer | null>;
  log: FastifyBaseLogger;
}): { stop(): void } {
  const sockets = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: MAX_CLIENT_MESSAGE_BYTES,
    // ws's default, stated because the hub relies on it: without compression every send is written to the
    // stream at once, so the hub may write whole frames to the same stream in between (text-frame.ts).
    perMessageDeflate: false,
  });
  let stopped = false;

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path !== LIVE_PATH) return refuse(socket, notFound());
    // While shutting down, a new socket would only be closed again: the client retries elsewhere or later.
    if (stopped) return void socket.destroy();
    let viewer: Viewer | null;
    try {
      viewer = await deps.resolveViewer(request);
    } catch (error) {
      if (faultOf(error) === 'unavailable') {
        deps.log.warn({ err: error }, 'live upgrade: the database is unavailable');
        return refuse(socket, new AppError('unavailable', messages.databaseUnavailable));
      }
      deps.log.error({ err: error }, 'live upgrade: could not resolve the viewer');
      return refuse(socket, new AppError('internal', messages.internal));
    }
    if (!viewer) return refuse(socket, unauthenticated());
    if (stopped || socket.destroyed) return void socket.destroy();
    const signedIn = viewer;
    socket.off('error', ignoreSocketError);
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      deps.hub.attach(webSocket, signedIn, socket);
    });
  }

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // A client may reset the connection while its session is looked up.
    socket.on('error', ignoreSocketError);
    void upgrade(request, socket, head);
  };
  deps.server.on('upgrade', onUpgrade);

  return {
    stop() {
      stopped = true;
      sockets.close();
    },
  };
}

/**
 * `GET /live` without an upgrade (the upgrade itself never reaches Fastify): the documented answers, 401
 * without credentials and 426 with them, rather than the not-found page.
 */
export function registerLiveHttpRoute(app: FastifyInstance, viewers: ViewerResolver): void {
  app.get(LIVE_PATH, async (request, reply) => {
    await viewers.requireViewer(request);
    reply.header('upgrade', 'websocket');
    throw new AppError('upgrade-required', messages.liveUpgradeRequired);
  });
}

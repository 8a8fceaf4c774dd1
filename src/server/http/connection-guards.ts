import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { messages } from '../../common';
import type { HttpTimeouts } from '../config/config';
import { AppError } from '../core/app-error';
import { bodyOf, refuseSocket } from './error-handler';

/**
 * Node's own timeouts, as Fastify server options. Node's `requestTimeout` (the whole request, body
 * included) stays off: it is one value for every route and would cut a long upload that is still making
 * progress. Bodies of bounded size get their own deadline instead (`limitBodyTime`); a stalled upload
 * or download is ended by the idle timeout. A `/live` socket leaves these timeouts behind at the upgrade
 * (ws turns its socket timeout off).
 */
export function httpServerOptions(timeouts: HttpTimeouts) {
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: 0,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: 0,
      // How often Node looks for requests past their headers deadline (its default is 30 s).
      connectionsCheckingInterval: Math.max(50, Math.floor(timeouts.headersMs / 4)),
    },
  };
}

/**
 * Node's HTTP parser refuses a request before Fastify sees it (a malformed request line or header, a
 * headers timeout, headers too large): answer in the API's error shape, then close the connection.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err: error }, 'client error before routing');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return refuseSocket(socket, new AppError('request-timeout', messages.requestTimeout));
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return refuseSocket(socket, new AppError('headers-too-large', messages.headersTooLarge));
  }
  return refuseSocket(socket, new AppError('invalid-argument', messages.badRequest));
}

/**
 * Errors Fastify raises before a route runs (a URL that does not percent-decode, a parameter too long):
 * the API's error body instead of Fastify's own.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  request.log.info({ err: error }, 'malformed request');
  return reply
    .status(400)
    .type('application/json; charset=utf-8')
    .send(bodyOf('invalid-argument', messages.badRequest, { requestId: request.id }));
}

/**
 * At most `max` open TCP connections (HTTP and live) per peer address; one more is destroyed at once,
 * before anything is read from it. Behind a reverse proxy every connection comes from the proxy, so the
 * cap must be set at the proxy or raised here (docs/security.md).
 */
export function limitConnectionsPerAddress(server: Server, max: number, log: FastifyBaseLogger): void {
  const open = new Map<string, number>();
  const overLimit = new Set<string>();
  server.on('connection', (socket: Duplex & { remoteAddress?: string }) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      // Logged once each time an address reaches the cap, not for every refused connection.
      if (!overLimit.has(address))
        log.warn({ address, max }, 'connection refused: too many from one address');
      overLimit.add(address);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      overLimit.delete(address);
    });
  });
}

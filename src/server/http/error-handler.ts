import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorStatus, messages, type ErrorBody, type ErrorCode } from '../../common';
import { faultOf } from '../db/fault-errors';
import { AppError } from '../core/app-error';
import type { Metrics } from '../core/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when metrics are on (docs/decisions/024-operations.md). */
    metrics: Metrics | undefined;
  }
}

/** The API's error body (ErrorBody in src/common). */
export function bodyOf(code: ErrorCode, message: string, extra: Partial<ErrorBody['error']> = {}): ErrorBody {
  return { error: { code, message, ...extra } };
}

/**
 * Answers on a bare socket, outside any request (a refused upgrade, a request Node's parser refused):
 * a plain HTTP error in the API's error shape, then the connection ends.
 */
export function refuseSocket(socket: Duplex, error: AppError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(bodyOf(error.code, error.message));
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      '\r\n' +
      body,
  );
}

/** Known framework errors, by Fastify error code, that are the client's fault. */
const clientErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload-too-large', message: messages.payloadTooLarge },
  FST_REQ_FILE_TOO_LARGE: { code: 'payload-too-large', message: messages.payloadTooLarge },
  FST_FILES_LIMIT: { code: 'invalid-argument', message: messages.badRequest },
  FST_PARTS_LIMIT: { code: 'invalid-argument', message: messages.badRequest },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { code: 'invalid-argument', message: messages.badRequest },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'invalid-argument', message: messages.badRequest },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid-argument', message: messages.badRequest },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid-argument', message: messages.badRequest },
  // PostgreSQL refuses text holding a NUL character (SQLite stores it): a request's text that reached a
  // query with one (a path id, a search) is the request's fault, answered as SQLite's twin would be.
  '22021': { code: 'invalid-argument', message: messages.badRequest },
};

/**
 * A handler may have prepared a download (type, length, disposition, hash) before failing, or a stream may
 * have failed after that: the error body is JSON, so those headers must not describe it.
 */
export function prepareJsonErrorReply(reply: FastifyReply): void {
  for (const header of [
    'content-length',
    'content-disposition',
    'content-range',
    'etag',
    'cache-control',
    'accept-ranges',
    'x-goog-hash',
  ]) {
    reply.removeHeader(header);
  }
  reply.type('application/json; charset=utf-8');
}

/** How long a client should wait before retrying after a fault (a database restart takes seconds). */
const FAULT_RETRY_AFTER_SECONDS = 5;

/**
 * Answers a fault of the machine (see fault-errors.ts), if `error` is one, in the body shape of the
 * caller (the JSON API's or the storage protocol's): 503 while the database is away, 507 when the disk is
 * full, both with when to retry. Undefined when `error` is not a fault.
 */
export function sendFault<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  send: (status: number, message: string, code: 'unavailable' | 'insufficient-storage') => T,
): T | undefined {
  const fault = faultOf(error);
  if (!fault) return undefined;
  request.log.warn({ err: error }, fault === 'disk-full' ? 'disk full' : 'database unavailable');
  if (fault === 'disk-full') request.server.metrics?.countStorageError();
  else request.server.metrics?.countDatabaseError();
  reply.header('retry-after', String(FAULT_RETRY_AFTER_SECONDS));
  return fault === 'disk-full'
    ? send(errorStatus['insufficient-storage'], messages.diskFull, 'insufficient-storage')
    : send(errorStatus.unavailable, messages.databaseUnavailable, 'unavailable');
}

/**
 * The one error funnel: AppErrors keep their code and message, known client mistakes become 4xx,
 * and anything else is a generic 500; details go to the log, never to the client. Every body names the
 * request id, which every log line of the request carries.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    prepareJsonErrorReply(reply);
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(
        bodyOf(error.code, error.message, {
          requestId: request.id,
          ...(error.fields ? { fields: error.fields } : {}),
        }),
      );
    }
    const known = error.code ? clientErrors[error.code] : undefined;
    if (known)
      return reply
        .status(errorStatus[known.code])
        .send(bodyOf(known.code, known.message, { requestId: request.id }));
    if (error.statusCode === 429) {
      return reply
        .status(429)
        .send(bodyOf('too-many-requests', messages.tooManyAttempts, { requestId: request.id }));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'client error');
      return reply
        .status(400)
        .send(bodyOf('invalid-argument', messages.badRequest, { requestId: request.id }));
    }
    const fault = sendFault(request, reply, error, (status, message, code) =>
      reply.status(status).send(bodyOf(code, message, { requestId: request.id })),
    );
    if (fault) return fault;
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(bodyOf('internal', messages.internal, { requestId: request.id }));
  });
}

import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages, UNREAD_BODY_DRAIN_MAX_BYTES } from '../../common';
import { AppError } from '../core/app-error';
import { refuseSocket } from './error-handler';

/** The body length a request declares, or undefined without a valid Content-Length (chunked). */
function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d{1,15}$/.test(header)) return undefined;
  return Number(header);
}

/**
 * Refuses, before a byte of it is read, a body whose Content-Length is above what the route accepts.
 * The answer closes the connection (`settleUnreadBody`): the client need not send the rest.
 */
export function refuseDeclaredBodyOver(
  request: FastifyRequest,
  maxBytes: number,
  refusal: () => Error = () => new AppError('payload-too-large', messages.payloadTooLarge),
): void {
  const declared = declaredLength(request);
  if (declared !== undefined && declared > maxBytes) throw refusal();
}

/**
 * For an answer that goes out before its request body was read (a refusal): a small rest is read and
 * dropped so the connection stays usable (closing on unread bytes would reset it, and the client could
 * lose the answer); a large or unknown rest is not read at all, and the connection closes after the
 * answer. Reading a refused 30 MB upload to its end would cost the server the whole transfer.
 */
export function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.readableEnded) return;
  const declared = declaredLength(request);
  if (raw.complete || (declared !== undefined && declared <= UNREAD_BODY_DRAIN_MAX_BYTES)) {
    raw.resume();
    return;
  }
  reply.header('connection', 'close');
}

/**
 * A deadline for receiving a body of bounded size (JSON, the signup form): a client trickling bytes
 * cannot hold a connection and its parser for ever. Past it the client gets a 408 and the connection
 * closes. Storage bodies are not given one: an upload may take long while it makes progress.
 */
export function limitBodyTime(request: FastifyRequest, reply: FastifyReply, deadlineMs: number): void {
  const raw = request.raw;
  if (raw.complete) return;
  const timer = setTimeout(() => {
    if (raw.complete) return;
    request.log.info('request body too slow: connection closed');
    if (reply.raw.headersSent) raw.socket.destroy();
    else refuseSocket(raw.socket, new AppError('request-timeout', messages.requestTimeout));
  }, deadlineMs);
  const clear = () => clearTimeout(timer);
  raw.once('end', clear);
  raw.once('close', clear);
}

/** True when a JSON body's Content-Type names no charset or UTF-8, the only one JSON may be sent in (RFC 8259). */
function isUtf8Json(contentType: string | undefined): boolean {
  try {
    const charset = parseContentType(contentType ?? '').parameters.charset?.toLowerCase();
    return charset === undefined || charset === 'utf-8' || charset === 'utf8';
  } catch {
    return false;
  }
}

/**
 * JSON bodies are read as UTF-8 whatever their Content-Type says, so a body labelled in another charset
 * (UTF-16) would be read as something its sender did not write. It is refused instead, with the same 400
 * as any body the server cannot read; otherwise Fastify's own parser (its prototype-poisoning checks
 * included) reads it.
 */
export function readJsonInUtf8Only(server: FastifyInstance): void {
  const parseJson = server.getDefaultJsonParser('error', 'error');
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (!isUtf8Json(request.headers['content-type'])) {
      done(new AppError('invalid-argument', messages.badRequest), undefined);
      return;
    }
    parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });
}

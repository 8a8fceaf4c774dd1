import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { newId } from '../core/ids';

const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An id the proxy already gave the request is kept, so one id follows it through the proxy's log and
 * ours; anything that could forge log lines or grow them (spaces, control characters, long values) is
 * replaced by a fresh one.
 */
const SANE_INCOMING_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Fastify's `genReqId`: the id every log line of the request carries (`reqId`) and error bodies show. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_INCOMING_ID.test(incoming) ? incoming : newId();
}

/** Every answer names its request id, so a user's report or a proxy log line leads to our log lines. */
export function echoRequestIds(server: FastifyInstance): void {
  server.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}

import type { FastifyReply } from 'fastify';

/** The storage protocol's error body (STORAGE-PROTOCOL.md §8.1). */
export function storageError(reply: FastifyReply, status: number, message: string, reasonPhrase?: string) {
  if (reasonPhrase) reply.raw.statusMessage = reasonPhrase;
  return reply.status(status).send({ error: { code: status, message } });
}

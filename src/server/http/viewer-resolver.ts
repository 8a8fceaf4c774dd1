import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Viewer } from '../core/viewer';

/**
 * How the HTTP edge learns who is calling. The auth feature implements it (`createViewerResolver` in
 * auth/viewer.ts) and the composition root hands it to every route, the write limit and the live upgrade,
 * so they depend on this edge contract and none of them on auth (docs/architecture.md#import-rules).
 */
export interface ViewerResolver {
  /** The viewer of a request, resolved once per request; null when it proves no session. */
  viewerOf(request: FastifyRequest): Promise<Viewer | null>;
  /** The viewer of a request, or a 401. */
  requireViewer(request: FastifyRequest): Promise<Viewer>;
  /**
   * The viewer by the session cookie alone, whatever `Authorization` says: for what only the session
   * may do (minting id tokens), so a leaked id token cannot renew itself.
   */
  sessionViewerOf(request: FastifyRequest): Promise<Viewer | null>;
  /** For requests outside Fastify (the live socket's upgrade): the caller has parsed the cookies. */
  viewerOfHeaders(
    headers: IncomingHttpHeaders,
    cookies: Record<string, string | undefined>,
  ): Promise<Viewer | null>;
}

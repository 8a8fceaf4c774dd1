import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthUser } from '../../common';
import { API_TOKEN_PREFIX } from '../../common/api-tokens';
import type { Database } from '../db/schema';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import { unauthenticated } from '../core/app-error';
import { hasForeignOrigin } from '../http/origin';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { IdTokens } from './id-tokens';
import type { SessionActivity } from './session-activity';
import type { SessionCache } from './session-cache';
import { findLiveSession, hashSessionToken } from './sessions-repository';

export const SESSION_COOKIE = 'dojo_session';

declare module 'fastify' {
  interface FastifyRequest {
    viewerPromise?: Promise<Viewer | null>;
  }
}

const TOKEN_SCHEMES = /^(?:Bearer|Firebase)\s+(\S+)$/i;

/**
 * Resolves the viewer once per request: a personal API token (`dojo_pat_…`) or an id token in
 * `Authorization` (Bearer or Firebase scheme), or the session cookie. A cookie on a cross-origin request
 * is ignored, so a third-party page can never act with a user's session (CSRF), while token clients,
 * which send no Origin, are unaffected.
 */
export function createViewerResolver(deps: {
  db: Kysely<Database>;
  idTokens: IdTokens;
  publicUrl: string | undefined;
  sessions: SessionCache;
  activity: SessionActivity;
}): ViewerResolver {
  const findSession = (tokenHash: string) =>
    deps.sessions.find(tokenHash, async () => {
      const now = nowIso();
      const session = await findLiveSession(deps.db, tokenHash, now);
      if (session) deps.activity.seen(session, now);
      return session;
    });

  async function resolve(
    headers: IncomingHttpHeaders,
    sessionCookie: string | undefined,
  ): Promise<Viewer | null> {
    const authorization = headers.authorization;
    if (authorization) {
      const token = TOKEN_SCHEMES.exec(authorization)?.[1];
      // A personal API token is a session of its own kind, found (and dropped when revoked) like one.
      if (token?.startsWith(API_TOKEN_PREFIX)) {
        const session = await findSession(hashSessionToken(token));
        return session?.kind === 'api-token' ? viewerOfSession(session, true) : null;
      }
      const claims = token ? await deps.idTokens.verify(token) : null;
      if (!claims) return null;
      const session = await findSession(claims.sessionHash);
      if (!session || session.uid !== claims.uid || session.kind !== 'browser') return null;
      return { ...viewerOfSession(session, true), tokenExpiresAt: claims.expiresAt };
    }
    return resolveCookie(headers, sessionCookie);
  }

  async function resolveCookie(
    headers: IncomingHttpHeaders,
    sessionCookie: string | undefined,
  ): Promise<Viewer | null> {
    if (!sessionCookie || hasForeignOrigin(headers, deps.publicUrl)) return null;
    const session = await findSession(hashSessionToken(sessionCookie));
    // An API token's secret pasted into the cookie proves nothing: tokens go in `Authorization` only.
    return session?.kind === 'browser' ? viewerOfSession(session, false) : null;
  }

  const resolveRequest = (request: FastifyRequest) =>
    resolve(request.headers, request.cookies[SESSION_COOKIE]);

  return {
    viewerOf(request: FastifyRequest): Promise<Viewer | null> {
      request.viewerPromise ??= resolveRequest(request);
      return request.viewerPromise;
    },
    async requireViewer(request: FastifyRequest): Promise<Viewer> {
      request.viewerPromise ??= resolveRequest(request);
      const viewer = await request.viewerPromise;
      if (!viewer) throw unauthenticated();
      return viewer;
    },
    sessionViewerOf(request: FastifyRequest): Promise<Viewer | null> {
      return resolveCookie(request.headers, request.cookies[SESSION_COOKIE]);
    },
    viewerOfHeaders(headers: IncomingHttpHeaders, cookies: Record<string, string | undefined>) {
      return resolve(headers, cookies[SESSION_COOKIE]);
    },
  };
}

function viewerOfSession(
  session: NonNullable<Awaited<ReturnType<typeof findLiveSession>>>,
  viaToken: boolean,
): Viewer {
  const viewer: Viewer = {
    ...userOf(session),
    sessionHash: session.tokenHash,
    viaToken,
    sessionExpiresAt: Date.parse(session.expiresAt),
  };
  if (session.kind === 'api-token' && session.tokenId && session.scope) {
    viewer.apiToken = { id: session.tokenId, scope: session.scope };
  }
  return viewer;
}

/** The auth user a client may see, from a session row or a viewer (never the session hash). */
export function userOf(session: AuthUser): AuthUser {
  return {
    uid: session.uid,
    email: session.email,
    displayName: session.displayName,
    photoURL: session.photoURL,
    role: session.role,
  };
}

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/config';

/**
 * The page's Content-Security-Policy. Only HTML needs one (JSON and bytes are never rendered as pages;
 * downloads set their own sandboxing policy), so it is built per page with a fresh nonce for the styles
 * react-select injects, instead of on every API response.
 */
export function pageContentSecurityPolicy(styleNonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data: blob:",
    "font-src 'self'",
    // 'self' covers the same-origin WebSocket (/live) in current browsers.
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    // No upgrade-insecure-requests: self-hosted installs often run on plain HTTP inside a LAN.
  ].join('; ');
}

export const newCspNonce = (): string => randomBytes(16).toString('base64url');

/**
 * The headers helmet sets for these options, computed once. They do not depend on the request, so
 * running helmet's middleware (or @fastify/helmet, which builds that middleware anew for every request)
 * per response only repeats the same work, on every answer of the load benchmark's hot path.
 */
function helmetHeaders(options: Parameters<typeof helmet>[0]): [name: string, value: string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    // X-Powered-By, which Node and Fastify never set.
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Helmet's other headers on every response (nosniff, referrer policy, frame options, CORP, HSTS…). */
export function registerSecurityHeaders(server: FastifyInstance, config: Config): void {
  const headers = helmetHeaders({
    contentSecurityPolicy: false,
    strictTransportSecurity: config.publicUrl?.startsWith('https://') ?? false,
  });
  // On the raw response, as helmet does: a route's own `reply.header` still overrides one of them.
  server.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}

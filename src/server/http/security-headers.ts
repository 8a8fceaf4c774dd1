import { randomBytes } from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

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

/** Helmet's other headers on every response (nosniff, referrer policy, frame options, CORP, HSTS…). */
export async function registerSecurityHeaders(server: FastifyInstance, config: Config): Promise<void> {
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: false,
    strictTransportSecurity: config.publicUrl?.startsWith('https://') ?? false,
  });
}

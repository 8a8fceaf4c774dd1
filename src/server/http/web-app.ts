import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isClientRoute, messages, type ErrorBody } from '../../common';
import { pinnedThemeOf, THEME_COOKIE } from '../../common/appearance';
import { newCspNonce, pageContentSecurityPolicy } from './security-headers';

/** The app's screens, and index.html by its own name; anything else renders the app's not-found page with a 404. */
const isAppPage = (url: string) => url === '/index.html' || isClientRoute(url);

/**
 * Serves the production web build. index.html gets the request's CSP nonce (for react-select's
 * emotion styles) in a meta tag, so the policy can stay `style-src 'self' 'nonce-…'`.
 */
export async function registerWebApp(app: FastifyInstance, webRoot: string | undefined): Promise<void> {
  const indexPath = webRoot ? path.join(webRoot, 'index.html') : undefined;
  const indexHtml = indexPath && fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : undefined;
  if (webRoot && !indexHtml) app.log.warn({ webRoot }, 'no web build found: run `npm run build`');

  if (webRoot && indexHtml) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      // One route for every file, looked up when asked for. Per-file routes (`wildcard: false`) registered
      // two routes for each of the build's files at start, enough to make V8 optimize the router's insert
      // and keep the optimized code in an idle server (docs/decisions/039-no-driver-at-start.md).
      wildcard: true,
      // A page must carry the CSP and its nonce: HTML (index.html by its own name included) is never sent
      // as a plain file, but by the handler below; nor is a directory (a path ending in `/`).
      allowedPath: (pathName) => !pathName.endsWith('.html') && !pathName.endsWith('/'),
      // The build writes .br and .gz beside each text asset; they go out as they are, per Accept-Encoding.
      preCompressed: true,
      // Our own Cache-Control: hashed assets never change; anything else (favicon) is revalidated.
      cacheControl: false,
      setHeaders(response, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The same URL answers brotli, gzip or plain bytes: a shared cache must key on Accept-Encoding.
        response.setHeader('vary', 'Accept-Encoding');
      },
    });
  }

  const sendIndex = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const nonce = newCspNonce();
    // A pinned theme goes on <html> before the first paint, with no script (the CSP allows none inline);
    // without one the stylesheet follows prefers-color-scheme (docs/decisions/069-dark-theme-and-room-to-work.md).
    const theme = pinnedThemeOf(request.cookies[THEME_COOKIE]);
    const html = (indexHtml ?? '')
      .replace('<html lang="en">', theme ? `<html lang="en" data-theme="${theme}">` : '<html lang="en">')
      .replace('</head>', `<meta name="csp-nonce" content="${nonce}"></head>`);
    return reply
      .status(status)
      .header('content-security-policy', pageContentSecurityPolicy(nonce))
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  };

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?', 1)[0] ?? '/';
    // The server's own paths answer JSON, /metrics included: it is no route when metrics are off.
    const isApi = url.startsWith('/api/') || url.startsWith('/v0/') || url === '/live' || url === '/metrics';
    if (!isApi && indexHtml && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendIndex(request, reply, isAppPage(url) ? 200 : 404);
    }
    const body: ErrorBody = {
      error: { code: 'not-found', message: messages.notFound, requestId: request.id },
    };
    return reply.status(404).send(body);
  });
}

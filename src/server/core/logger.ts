import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { CLIENT_ROUTES } from '../../common';

/**
 * What services and repositories log through. Fastify's logger (pino) is one; keeping to this much lets
 * them stay free of the HTTP framework (lint-enforced in eslint.config.js).
 */
export interface Logger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Where log lines go instead of stdout (tests read the server's log through one). */
export interface LogDestination {
  write(line: string): void;
}

const REDACTED = '[redacted]';
/** An unmatched path's segment that is not a word of our own routes. */
const UNKNOWN_SEGMENT = '*';
/** Query values the log may show: words that choose a protocol, never a capability or user data. */
const SHOWN_QUERY_VALUES = new Set(['alt', 'uploadType', 'upload_protocol']);
/** A query name the log may show: a short identifier (our tokens are longer and carry '-' or '.'). */
const SHOWN_QUERY_NAME = /^[A-Za-z][A-Za-z0-9_]{0,19}$/;
const SHOWN_QUERY_VALUE = /^[A-Za-z0-9_]{1,20}$/;
/**
 * Fastify errors whose message quotes the request's path (every other framework message names the route
 * pattern at most): they are logged by their code alone.
 */
const ERRORS_QUOTING_THE_PATH = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);

/**
 * The server's logger options. Secrets travel in URLs (reset and invitation tokens in paths, download,
 * unsubscribe and upload tokens in queries), so no log line holds a request's URL as it came: a request is
 * logged by its route's pattern (`/api/invitations/:token`), a request no route matched by the words of our
 * own routes (anything else is `*`, also in what a route's wildcard matched), and every query value is
 * `[redacted]` but for a few protocol words.
 * Errors that carry the request's bytes or quote its path lose them. This is the one place that knows;
 * nothing else in the server logs a URL (docs/decisions/044-secrets-out-of-logs-and-backups.md).
 */
export function serverLogging(
  level: string,
  destination: LogDestination | undefined,
): {
  options: Exclude<FastifyServerOptions['logger'], boolean | undefined>;
  /** Teaches the log a registered route's words (call it from an `onRoute` hook). */
  learnRoute(pattern: string): void;
} {
  const knownSegments = new Set(staticSegmentsOf(Object.values(CLIENT_ROUTES)));
  return {
    options: {
      level,
      ...(destination ? { stream: destination } : {}),
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: loggedUrl(request, knownSegments),
          remoteAddress: request.ip,
        }),
      },
      formatters: {
        // Runs before the serializers, so pino's own error serializer sees the cleaned error.
        log: (details: Record<string, unknown>) =>
          'err' in details ? { ...details, err: withoutRequestText(details.err) } : details,
      },
    },
    learnRoute(pattern) {
      for (const segment of staticSegmentsOf([pattern])) knownSegments.add(segment);
    },
  };
}

function staticSegmentsOf(patterns: string[]): string[] {
  return patterns.flatMap((pattern) =>
    pattern.split('/').filter((segment) => segment !== '' && !/[:*]/.test(segment)),
  );
}

function loggedUrl(request: FastifyRequest, knownSegments: ReadonlySet<string>): string {
  const [path = '', query] = splitOnce(request.url, '?');
  const pattern = loggedPath(request, path, knownSegments);
  return query === undefined ? pattern : `${pattern}?${redactedQuery(query)}`;
}

/**
 * The route's pattern; what a wildcard stands for (the web build's files, which also catch every path no
 * other route matches, and storage object names) and a path no route matched, in known words only.
 */
function loggedPath(request: FastifyRequest, path: string, knownSegments: ReadonlySet<string>): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return inKnownWords(path, knownSegments);
  const wildcard = (request.params as Record<string, unknown> | undefined)?.['*'];
  return pattern.endsWith('*') && typeof wildcard === 'string'
    ? `${pattern.slice(0, -1)}${inKnownWords(wildcard, knownSegments)}`
    : pattern;
}

function inKnownWords(path: string, knownSegments: ReadonlySet<string>): string {
  return path
    .split('/')
    .map((segment) => (segment === '' || knownSegments.has(segment) ? segment : UNKNOWN_SEGMENT))
    .join('/');
}

function redactedQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const [name = '', value] = splitOnce(pair, '=');
      if (!SHOWN_QUERY_NAME.test(name)) return REDACTED;
      if (value === undefined) return name;
      const shown = SHOWN_QUERY_VALUES.has(name) && SHOWN_QUERY_VALUE.test(value);
      return `${name}=${shown ? value : REDACTED}`;
    })
    .join('&');
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/**
 * Node's HTTP parser errors carry the raw request (`rawPacket`: its request line and cookies), and two
 * Fastify errors quote the path: both are logged as their name and code only.
 */
function withoutRequestText(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const quotesPath = typeof code === 'string' && ERRORS_QUOTING_THE_PATH.has(code);
  if (!quotesPath && !('rawPacket' in error)) return error;
  const cleaned = new Error(
    `${typeof code === 'string' ? code : error.name}: not logged, it holds the request's text`,
  );
  cleaned.name = error.name;
  cleaned.stack = `${cleaned.name}: ${cleaned.message}`;
  return Object.assign(cleaned, typeof code === 'string' ? { code } : {});
}

/**
 * Faults of the machine rather than of the request: the database is away (a PostgreSQL restart or
 * failover) or the disk is full. Both are answered with a clear status the client can retry on (503,
 * 507) instead of a generic 500, and neither may take the process down.
 */
export type FaultKind = 'unavailable' | 'disk-full';

/** PostgreSQL SQLSTATEs of a database that is going away, starting up, or unreachable. */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown: `pg_ctl stop/restart -m fast`
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

/** Socket errors of a connection to a database that is not there (any more). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** node-postgres reports a connection lost mid-query with these messages and no code. */
const PG_CONNECTION_LOST = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

const DISK_FULL_CODES = new Set([
  'ENOSPC', // no space left on device
  'EDQUOT', // disk quota exceeded
  'SQLITE_FULL',
  '53100', // PostgreSQL disk_full
]);

/** What kind of fault `error` (or an error it wraps) is, if it is one. */
export function faultOf(error: unknown): FaultKind | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      if (DISK_FULL_CODES.has(code)) return 'disk-full';
      if (PG_UNAVAILABLE.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) return 'unavailable';
    }
    if (typeof message === 'string' && PG_CONNECTION_LOST.some((text) => message.startsWith(text))) {
      return 'unavailable';
    }
    current = cause;
  }
  return undefined;
}

import type { IncomingHttpHeaders } from 'node:http';

/**
 * True unless the request carries an Origin from another site. Requests without Origin (same-origin
 * GETs, non-browser clients) pass; browsers always send Origin on cross-origin and state-changing calls.
 */
export function isSameOrigin(headers: IncomingHttpHeaders, publicUrl: string | undefined): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  if (host === headers.host) return true;
  return publicUrl !== undefined && host === new URL(publicUrl).host;
}

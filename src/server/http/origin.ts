import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a browser origin (`scheme://host[:port]`) is the app's own. With `PUBLIC_URL` that is its origin,
 * scheme included: the `Host` header is whatever the client or a proxy wrote. Without it the app only
 * knows the request's `Host`, so the host part is compared (the scheme is unknown behind a TLS proxy).
 */
function isOwnOrigin(origin: string, headers: IncomingHttpHeaders, publicUrl: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (publicUrl !== undefined) return url.origin === new URL(publicUrl).origin;
  return url.host === headers.host;
}

/**
 * True when the request names an Origin that is not the app's (an opaque `null` origin included). Requests
 * without Origin (same-origin GETs, non-browser clients) pass; browsers send it on every cross-origin
 * fetch, WebSocket and state-changing request.
 */
export function hasForeignOrigin(headers: IncomingHttpHeaders, publicUrl: string | undefined): boolean {
  const { origin } = headers;
  return origin !== undefined && !isOwnOrigin(origin, headers, publicUrl);
}

/** `Sec-Fetch-Site` values a browser sends for requests the app's own pages (or the user) started. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * True when a browser says the request comes from a page of another origin. Origin decides when present.
 * Without it (browsers before 2020 sent none on form posts) the browser-set `Sec-Fetch-Site`, then the
 * `Referer`, decide; a request with none of the three is not from a browser page and passes.
 */
export function isCrossSiteRequest(headers: IncomingHttpHeaders, publicUrl: string | undefined): boolean {
  if (headers.origin !== undefined) return hasForeignOrigin(headers, publicUrl);
  const fetchSite = headers['sec-fetch-site'];
  if (fetchSite !== undefined) return !OWN_FETCH_SITES.has(fetchSite);
  const { referer } = headers;
  return referer !== undefined && !isOwnOrigin(referer, headers, publicUrl);
}

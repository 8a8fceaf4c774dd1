/** Parsers for the raw parts of a storage request: its URL (bucket, object name), query and Range header. */

/**
 * Splits a raw (still percent-encoded) storage URL into bucket and object name, decoding each exactly
 * once. Routers that decode `%2F` before matching would break names with slashes, so we parse ourselves.
 */
export function parseObjectUrl(rawUrl: string): { bucket: string; name: string | undefined } | null {
  const path = rawUrl.split('?', 1)[0] ?? '';
  const match = /^\/v0\/b\/([^/]+)\/o(?:\/([^/]*))?\/?$/.exec(path);
  if (!match) return null;
  try {
    const bucket = decodeURIComponent(match[1] ?? '');
    const encodedName = match[2];
    return {
      bucket,
      name: encodedName === undefined || encodedName === '' ? undefined : decodeURIComponent(encodedName),
    };
  } catch {
    return null;
  }
}

/** Parses a single `bytes=start-end` range against a size; null when absent, 'invalid' when unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'invalid';
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/**
 * The query parameters of a raw URL, each key and value decoded exactly once (`+` is a space, as in
 * forms; the SDK always sends `%2B` for a plus). The first of repeated keys wins. Null when an escape
 * is malformed.
 */
export function parseQuery(rawUrl: string): Map<string, string> | null {
  const at = rawUrl.indexOf('?');
  const params = new Map<string, string>();
  if (at < 0) return params;
  try {
    for (const pair of rawUrl.slice(at + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const decode = (text: string) => decodeURIComponent(text.replaceAll('+', ' '));
      const key = decode(eq < 0 ? pair : pair.slice(0, eq));
      if (!params.has(key)) params.set(key, eq < 0 ? '' : decode(pair.slice(eq + 1)));
    }
  } catch {
    return null;
  }
  return params;
}

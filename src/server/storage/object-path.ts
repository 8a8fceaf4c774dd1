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

import { storageErrors } from './storage-error';

/**
 * Object paths, normalised the way firebase/storage does it: empty segments are dropped, so
 * `a//b/` and `/a/b` both mean `a/b`, and the root of a bucket is the empty path.
 */
export function childPath(path: string, child: string): string {
  const canonical = child
    .split('/')
    .filter((segment) => segment.length > 0)
    .join('/');
  if (path.length === 0) return canonical;
  if (canonical.length === 0) return path;
  return `${path}/${canonical}`;
}

/** The parent path; `null` for the root. */
export function parentPath(path: string): string | null {
  if (path.length === 0) return null;
  const index = path.lastIndexOf('/');
  return index === -1 ? '' : path.slice(0, index);
}

/** The last segment of a path (`''` for the root). */
export function lastComponent(path: string): string {
  const index = path.lastIndexOf('/', path.length - 2);
  return index === -1 ? path : path.slice(index + 1);
}

/** A bucket and an object path inside it. */
export interface Location {
  bucket: string;
  path: string;
}

const BUCKET = '[A-Za-z0-9.\\-_]+';
const GS_URL = new RegExp(`^gs://(${BUCKET})(?:/(.*))?$`);
const HTTP_URL = new RegExp(`^https?://[^/?#]+/v0/b/(${BUCKET})/o(?:/([^?#]*))?(?:[?#].*)?$`);

/** True for strings `ref(storage, …)` treats as URLs rather than paths. */
export function looksLikeUrl(value: string): boolean {
  return /^[A-Za-z]+:\/\//.test(value);
}

/**
 * Parses `gs://bucket/path` or a `{origin}/v0/b/{bucket}/o/{encoded path}` URL (a download URL, for
 * example) into a location; throws `storage/invalid-url` for anything else.
 */
export function locationFromUrl(url: string): Location {
  const gs = GS_URL.exec(url);
  if (gs) return { bucket: gs[1] ?? '', path: childPath('', gs[2] ?? '') };
  const http = HTTP_URL.exec(url);
  if (http) {
    try {
      return { bucket: http[1] ?? '', path: childPath('', decodeURIComponent(http[2] ?? '')) };
    } catch {
      throw storageErrors.invalidUrl(url);
    }
  }
  throw storageErrors.invalidUrl(url);
}

/** A bucket as configured: a bare name or `gs://name`; a URL with a path is an error. */
export function parseBucket(spec: string): string {
  if (!looksLikeUrl(spec)) return spec;
  let location: Location;
  try {
    location = locationFromUrl(spec);
  } catch {
    throw storageErrors.invalidDefaultBucket(spec);
  }
  if (location.path !== '') throw storageErrors.invalidDefaultBucket(spec);
  return location.bucket;
}

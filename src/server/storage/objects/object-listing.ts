import { STORAGE_LIST_MAX_RESULTS } from '../../../common';
import { storageErrors } from '../protocol/storage-errors';

/**
 * GCS-style listing (docs/storage-protocol.md#46-list, without the emulator's quirks of docs/storage-protocol.md#103-listing-pages): names in byte
 * order; names with the delimiter after the prefix fold into one `prefix + segment + delimiter` entry;
 * items and prefixes count together against maxResults; a page token resumes strictly after the last
 * entry returned, so no prefix repeats across pages; no token on the last page.
 */
export interface ListRequest {
  prefix: string;
  delimiter: string;
  maxResults: number;
  pageToken: string | undefined;
}

export interface ListPage {
  prefixes: string[];
  items: string[];
  nextPageToken?: string;
}

/** Reads names in byte order from a bound on (see listNamesFrom). */
export type NameSource = (from: Bound, limit: number) => Promise<string[]>;

const DELIMITER_MAX_LENGTH = 16;

/** Validates the list query parameters; 400 (invalid-argument) for anything outside the protocol. */
export function parseListQuery(query: Map<string, string>): ListRequest {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const rawMax = query.get('maxResults');
  let maxResults = STORAGE_LIST_MAX_RESULTS;
  if (rawMax !== undefined) {
    maxResults = /^\d{1,7}$/.test(rawMax) ? Number(rawMax) : Number.NaN;
    if (!(maxResults >= 1 && maxResults <= STORAGE_LIST_MAX_RESULTS)) {
      throw storageErrors.invalidArgument(
        `Invalid value for 'maxResults'. Expected an integer from 1 to ${STORAGE_LIST_MAX_RESULTS}.`,
      );
    }
  }
  if (prefix.length > 1024 || delimiter.length > DELIMITER_MAX_LENGTH) {
    throw storageErrors.invalidArgument('Invalid prefix or delimiter.');
  }
  const pageToken = query.get('pageToken') || undefined;
  return { prefix, delimiter, maxResults, pageToken };
}

type Bound = { name: string; exclusive: boolean };

interface Cursor {
  /** The last entry returned: an item name, or a folded prefix (ends with the delimiter). */
  after: string;
  isPrefix: boolean;
}

function encodeToken(request: ListRequest, cursor: Cursor): string {
  const payload = { p: request.prefix, d: request.delimiter, a: cursor.after, f: cursor.isPrefix ? 1 : 0 };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

function decodeToken(request: ListRequest, token: string): Cursor {
  try {
    const payload = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (
      payload.p === request.prefix &&
      payload.d === request.delimiter &&
      typeof payload.a === 'string' &&
      payload.a.startsWith(request.prefix)
    ) {
      return { after: payload.a, isPrefix: payload.f === 1 };
    }
  } catch {
    // fall through
  }
  throw storageErrors.invalidArgument('Invalid pageToken.');
}

/**
 * The smallest string above every string that starts with `prefix`: its last code point plus one. UTF-8
 * keeps code point order, so this holds in byte order too. Null when no such string exists.
 */
export function successorOf(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return points.join('') + String.fromCodePoint(next);
  }
  return null;
}

export async function listPage(request: ListRequest, readNames: NameSource): Promise<ListPage> {
  const { prefix, delimiter, maxResults } = request;
  const cursor = request.pageToken ? decodeToken(request, request.pageToken) : undefined;
  const batchSize = Math.min(maxResults + 1, STORAGE_LIST_MAX_RESULTS);

  /** Where to read next; null when nothing can follow. */
  let from: Bound | null = { name: prefix, exclusive: false };
  /** The folded prefix being skipped over, if any. */
  let skipping: string | undefined;
  if (cursor) {
    if (cursor.isPrefix) {
      skipping = cursor.after;
      const successor = successorOf(cursor.after);
      from = successor === null ? null : { name: successor, exclusive: false };
    } else {
      from = { name: cursor.after, exclusive: true };
    }
  }

  const page: ListPage = { prefixes: [], items: [] };
  let count = 0;
  let last: Cursor | undefined;

  while (from) {
    const names = await readNames(from, batchSize);
    let next: Bound | null;
    for (const name of names) {
      if (!name.startsWith(prefix)) return finish(false);
      if (skipping !== undefined && name.startsWith(skipping)) continue;
      skipping = undefined;
      const at = delimiter === '' ? -1 : name.indexOf(delimiter, prefix.length);
      const entry: Cursor =
        at >= 0
          ? { after: name.slice(0, at + delimiter.length), isPrefix: true }
          : { after: name, isPrefix: false };
      if (count === maxResults) return finish(true);
      if (entry.isPrefix) {
        page.prefixes.push(entry.after);
        skipping = entry.after;
      } else {
        page.items.push(entry.after);
      }
      count += 1;
      last = entry;
    }
    if (names.length < batchSize) break;
    const lastName = names[names.length - 1]!;
    if (skipping !== undefined && lastName.startsWith(skipping)) {
      // The rest of a folded prefix may be long: jump past it instead of reading it.
      const successor = successorOf(skipping);
      next = successor === null ? null : { name: successor, exclusive: false };
    } else {
      next = { name: lastName, exclusive: true };
    }
    from = next;
  }
  return finish(false);

  function finish(more: boolean): ListPage {
    if (more && last) page.nextPageToken = encodeToken(request, last);
    return page;
  }
}

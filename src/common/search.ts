/**
 * Project search (docs/decisions/020-search.md): how a query becomes words, how text is compared (case
 * and accents ignored, as `nameSearchKey` does for names) and where a result's words are highlighted. No
 * zod here (the schemas are in search-schemas.ts): the navbar's search box imports this module.
 */
import { nameSearchKey } from './users';

/** A query is 1 to this many characters once trimmed. */
export const SEARCH_QUERY_MAX_LENGTH = 200;
/** Results one search answers by default, and at most. */
export const SEARCH_LIMIT_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 50;
/** Words of a query that count; later ones are ignored (each is one more condition on the index). */
const SEARCH_MAX_WORDS = 8;

/**
 * Which text of a project matched best: its name, its details, one of its comments, or the file name of one
 * of its attachments (docs/decisions/073-attachments.md).
 */
type SearchField = 'name' | 'details' | 'comment' | 'attachment';

export interface SearchResult {
  id: string;
  name: string;
  category: string;
  /** Where the snippet comes from. */
  field: SearchField;
  /** A short piece of the matching text, around its first matching word (the whole name for `name`). */
  snippet: string;
  /** Completed ('Mark as Complete'): off the dashboards, still found. */
  completed: boolean;
}

export interface SearchResponse {
  results: SearchResult[];
}

/** Letters and digits make words; anything else separates them (as SQLite's unicode61 tokenizer does). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The words of a query as the index stores words: case and accents removed, at most SEARCH_MAX_WORDS,
 * duplicates dropped. Only letters and digits survive, so no index syntax (quotes, `*`, `:`, `-`, `OR`
 * as an operator) can come from the user.
 */
export function searchWords(query: string): string[] {
  const words = nameSearchKey(query).match(WORD) ?? [];
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}

/** A range of `text` to highlight, [start, end) in UTF-16 units. */
export interface HighlightRange {
  start: number;
  end: number;
}

/**
 * Where the query's words are in `text`, ignoring case and accents: whole words equal to a query word,
 * and words starting with the last one (it may still be being typed), as the server matches them.
 */
export function highlightRanges(text: string, query: string): HighlightRange[] {
  const words = searchWords(query);
  const last = words.at(-1);
  if (last === undefined) return [];
  const exact = new Set(words.slice(0, -1));
  const ranges: HighlightRange[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const key = nameSearchKey(match[0]);
    // A word whose key splits (rare ligatures) is compared as a whole, like the index does.
    if (exact.has(key) || key.startsWith(last)) ranges.push({ start, end: start + match[0].length });
  }
  return ranges;
}

/** How many of the query's words `text` holds (the last one as a prefix). */
export function matchedWordCount(text: string, words: readonly string[]): number {
  const keys = new Set(nameSearchKey(text).match(WORD) ?? []);
  const last = words.at(-1);
  let count = 0;
  for (const word of words) {
    if (keys.has(word) || (word === last && [...keys].some((key) => key.startsWith(word)))) count += 1;
  }
  return count;
}

const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

/** About SNIPPET_LENGTH characters of `text` around its first match of `query`, cut at spaces, with `…`. */
export function searchSnippet(text: string, query: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_LENGTH) return flat;
  const first = highlightRanges(flat, query)[0]?.start ?? 0;
  let start = Math.max(0, first - SNIPPET_BEFORE);
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space !== -1 && space < first ? space + 1 : start;
  }
  let end = Math.min(flat.length, start + SNIPPET_LENGTH);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    end = space > first ? space : end;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

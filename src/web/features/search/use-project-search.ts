import type { SearchResult } from '../../../common';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { useOneShotRead } from '../../hooks/use-one-shot-read';
import { dojo } from '../../lib/dojo-client';
import { errorMessage } from '../../lib/error-message';

/** How long typing must pause before a search is sent. */
const DEBOUNCE_MS = 200;

export interface ProjectSearch {
  /** The text the results are for ('' before any). */
  query: string;
  /** The last answer, kept on screen while the next one loads; null before the first. */
  results: SearchResult[] | null;
  /** A search for what is typed now is not answered yet. */
  loading: boolean;
  error: string | null;
}

const IDLE: ProjectSearch = { query: '', results: null, loading: false, error: null };

/**
 * Searches the server as the user types (docs/decisions/020-search.md): once typing pauses, the trimmed
 * text is sent; an answer to an older text is dropped, so what is shown last is for what was typed last.
 */
export function useProjectSearch(text: string): ProjectSearch {
  const typed = text.trim();
  const query = useDebouncedValue(typed, DEBOUNCE_MS);
  const search = useOneShotRead(query || null, (key) => dojo.projects.search(key));

  if (!typed) return IDLE;
  // A failure is always the newest answer (a success clears it), and it shows no results.
  const { data, failure } = search;
  const answered = failure?.key ?? data?.key ?? '';
  return {
    query: answered,
    results: failure ? null : (data?.value ?? null),
    loading: answered !== typed,
    error: failure ? errorMessage(failure.error) : null,
  };
}

import { useEffect, useState } from 'react';
import type { SearchResult } from '../../../common';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
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
  const [answer, setAnswer] = useState<ProjectSearch>(IDLE);

  useEffect(() => {
    if (!query) return;
    let current = true;
    dojo.projects.search(query).then(
      (results) => {
        if (current) setAnswer({ query, results, loading: false, error: null });
      },
      (error: unknown) => {
        if (current) setAnswer({ query, results: null, loading: false, error: errorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [query]);

  if (!typed) return IDLE;
  return { ...answer, loading: answer.query !== typed };
}

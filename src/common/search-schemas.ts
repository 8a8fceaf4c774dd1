/** The search request and response as schemas (zod): the server and the API description use them. */
import { z } from 'zod/mini';
import { messages } from './messages';
import { SEARCH_QUERY_MAX_LENGTH } from './search';

/** `q` once trimmed: 1 to SEARCH_QUERY_MAX_LENGTH characters. */
export const SearchTextSchema = z
  .string({ error: messages.searchQueryRequired })
  .check(
    z.trim(),
    z.minLength(1, messages.searchQueryRequired),
    z.maxLength(SEARCH_QUERY_MAX_LENGTH, messages.searchQueryTooLong),
  );

const SearchResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  field: z.enum(['name', 'details', 'comment', 'attachment']),
  snippet: z.string(),
  completed: z.boolean(),
});

export const SearchResponseSchema = z.object({ results: z.array(SearchResultSchema) });

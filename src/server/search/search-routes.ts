import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SEARCH_LIMIT_DEFAULT, SEARCH_LIMIT_MAX, SearchTextSchema, type SearchResponse } from '../../common';
import type { ViewerResolver } from '../http/viewer-resolver';
import { parseInput } from '../core/validate';
import type { SearchService } from './search-service';

export const SearchQuerySchema = z.object({
  q: SearchTextSchema,
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
});

/** `GET /api/search`: signed-in users only; the query is parsed here, the search is the service's. */
export function registerSearchRoutes(
  app: FastifyInstance,
  deps: { search: SearchService; viewers: ViewerResolver },
): void {
  app.get('/api/search', async (request): Promise<SearchResponse> => {
    const viewer = await deps.viewers.requireViewer(request);
    const query = parseInput(SearchQuerySchema, request.query);
    return { results: await deps.search.search(viewer, query) };
  });
}

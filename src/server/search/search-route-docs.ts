import { SearchResponseSchema } from '../../common';
import type { RouteDoc } from '../http/api-docs';
import { SearchQuerySchema } from './search-routes';

export const searchRouteDocs: RouteDoc[] = [
  {
    method: 'GET',
    path: '/api/search',
    tag: 'Search',
    summary: 'Projects whose name, details or comments hold every word of `q`, best first',
    description:
      'Case and accents are ignored; the last word also matches as a prefix (search as you type). Each result ' +
      'names the field that matched best and a snippet of it. `q` is 1–200 characters once trimmed; words ' +
      'are letters and digits, everything else separates them.',
    auth: 'session-or-token',
    query: SearchQuerySchema,
    response: { status: 200, description: 'The projects found', schema: SearchResponseSchema },
    errors: ['invalid-argument', 'unauthenticated'],
  },
];

import { SearchResponseSchema } from '../../common';
import { describeRoutes } from '../http/api-docs';
import { SearchQuerySchema } from './search-routes';

export const searchRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/search',
    tag: 'Search',
    summary: 'Projects whose name, details or comments hold every word of `q`, best first',
    description:
      'Case and accents are ignored; the last word also matches as a prefix (search as you type). Each result ' +
      'names the field that matched best and a snippet of it. `q` is 1–200 characters once trimmed; words ' +
      'are letters and digits, everything else separates them.',
    caller: 'member',
    query: SearchQuerySchema,
    response: { status: 200, description: 'The projects found', schema: SearchResponseSchema },
  },
]);

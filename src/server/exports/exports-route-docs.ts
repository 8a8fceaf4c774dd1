import { EXPORT_PATHS } from '../../common/exports';
import { describeRoutes } from '../http/api-docs';
import {
  CompletedExportQuerySchema,
  DashboardExportQuerySchema,
  SearchExportQuerySchema,
} from './exports-routes';

const tag = 'Export';
const formats =
  '`format=csv` (the default) answers `text/csv` (UTF-8 with a byte order mark, RFC 4180, dates in the ' +
  "locale of the request's Accept-Language, cells that would start a formula prefixed with `'`); " +
  '`format=json` answers `{"projects": [...]}` with ISO 8601 dates. Columns: name, category, due date, ' +
  'assignees, creator, created, completed, comment count, link. Streamed as an attachment ' +
  '(docs/api.md#spreadsheet-export).';

export const exportsRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: EXPORT_PATHS.dashboard,
    tag,
    summary: "The dashboard's every open project, with its filter and sort, as CSV or JSON",
    description: `The filters and sort of GET /api/projects, without paging. ${formats}`,
    caller: 'member',
    errors: ['too-many-requests'],
    query: DashboardExportQuerySchema,
    response: { status: 200, description: 'The export', contentType: 'text/csv; charset=utf-8' },
  },
  {
    method: 'GET',
    path: EXPORT_PATHS.completed,
    tag,
    summary: 'Every completed project, the latest completion first, as CSV or JSON',
    description: formats,
    caller: 'member',
    errors: ['too-many-requests'],
    query: CompletedExportQuerySchema,
    response: { status: 200, description: 'The export', contentType: 'text/csv; charset=utf-8' },
  },
  {
    method: 'GET',
    path: EXPORT_PATHS.search,
    tag,
    summary: "A search's results (as GET /api/search finds them, at most 50), as CSV or JSON",
    description: formats,
    caller: 'member',
    errors: ['too-many-requests'],
    query: SearchExportQuerySchema,
    response: { status: 200, description: 'The export', contentType: 'text/csv; charset=utf-8' },
  },
]);

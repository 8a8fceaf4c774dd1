import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { SearchTextSchema } from '../../common';
import { EXPORT_FORMATS, EXPORT_PATHS, exportMessages, type ExportFormat } from '../../common/exports';
import { parseInput } from '../core/validate';
import type { Viewer } from '../core/viewer';
import type { ViewerResolver } from '../http/viewer-resolver';
import { perUserRateLimit } from '../http/write-rate-limit';
import { dashboardFilterFields, dashboardOrderOf } from '../projects/projects-routes';
import { localeOfRequest } from './export-writers';
import type { ExportSource, ExportsService } from './exports-service';

const FormatSchema = z.enum(EXPORT_FORMATS, { error: exportMessages.formatInvalid }).default('csv');

/** The dashboard's list query (GET /api/projects's filters and sort), without paging: every project. */
export const DashboardExportQuerySchema = z.object({
  format: FormatSchema,
  ...dashboardFilterFields,
});

export const CompletedExportQuerySchema = z.object({ format: FormatSchema });

export const SearchExportQuerySchema = z.object({ format: FormatSchema, q: SearchTextSchema });

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/**
 * The three exports, each beside its list and with its list's query: authenticate, parse, then stream
 * what the service makes as an attachment. Each is limited per user (EXPORTS_PER_MINUTE). The links point at PUBLIC_URL, or at the request's origin.
 */
export function registerExportsRoutes(
  app: FastifyInstance,
  deps: {
    exports: ExportsService;
    viewers: ViewerResolver;
    publicUrl: string | undefined;
    exportsPerMinute: number;
  },
): void {
  const { exports, viewers, publicUrl } = deps;
  // A read, but one that reads a whole list: each list its own budget per user, as writes have.
  const exportLimit = { config: { rateLimit: perUserRateLimit(viewers, deps.exportsPerMinute) } };
  const originOf = (request: FastifyRequest): string => publicUrl ?? `${request.protocol}://${request.host}`;

  async function send(
    viewer: Viewer,
    request: FastifyRequest,
    reply: FastifyReply,
    source: ExportSource,
    format: ExportFormat,
  ): Promise<FastifyReply> {
    const { stream, fileName } = await exports.export(viewer, source, format, {
      origin: originOf(request),
      locale: localeOfRequest(request.headers['accept-language']),
    });
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .send(stream);
  }

  app.get(EXPORT_PATHS.dashboard, exportLimit, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(DashboardExportQuerySchema, request.query);
    const source: ExportSource = {
      list: 'dashboard',
      query: {
        category: query.category,
        assignedTo: query.assignedTo,
        orderBy: dashboardOrderOf(query.sort),
      },
    };
    return send(viewer, request, reply, source, query.format);
  });

  app.get(EXPORT_PATHS.completed, exportLimit, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(CompletedExportQuerySchema, request.query);
    return send(viewer, request, reply, { list: 'completed' }, query.format);
  });

  app.get(EXPORT_PATHS.search, exportLimit, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(SearchExportQuerySchema, request.query);
    return send(viewer, request, reply, { list: 'search', q: query.q }, query.format);
  });
}

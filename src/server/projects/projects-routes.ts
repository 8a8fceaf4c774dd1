import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CreateProjectSchema,
  DASHBOARD_SORTS,
  LIVE_QUERY_LIMIT_MAX,
  messages,
  PROJECT_CATEGORIES,
  UpdateProjectSchema,
  type CompletedProject,
  type CompletedProjectPage,
  type DashboardSort,
  type Project,
} from '../../common';
import { calendarMessages, calendarRangeProblem } from '../../common/calendar';
import type { ViewerResolver } from '../http/viewer-resolver';
import { parseInput } from '../core/validate';
import { perUserRateLimit } from '../http/write-rate-limit';
import type { ProjectQuery } from './projects-repository';
import type { ProjectsService } from './projects-service';

/** The dashboard's filters and order, as its list and its export read them. */
export const dashboardFilterFields = {
  category: z.enum(PROJECT_CATEGORIES).optional(),
  assignedTo: z.string().min(1).max(64).optional(),
  /** `newest` (the default) or `dueDate` (soonest first). */
  sort: z.enum(DASHBOARD_SORTS, { error: messages.projectsSortInvalid }).default('newest'),
};

/** The repository's order for a dashboard sort. */
export const dashboardOrderOf = (sort: DashboardSort): ProjectQuery['orderBy'] =>
  sort === 'dueDate' ? { column: 'due_date', direction: 'asc' } : { column: 'created_at', direction: 'desc' };

export const ListQuerySchema = z
  .object({
    ...dashboardFilterFields,
    /** The previous page's `nextCursor`. */
    after: z.string().min(1).max(256).optional(),
    limit: z.coerce.number().int().min(1).max(LIVE_QUERY_LIMIT_MAX).default(50),
    /** The calendar's range: projects due on or after `dueFrom` and before `dueBefore`, both or neither. */
    dueFrom: z.string().max(10).optional(),
    dueBefore: z.string().max(10).optional(),
  })
  .superRefine((query, context) => {
    if (query.dueFrom === undefined && query.dueBefore === undefined) return;
    const problem =
      query.dueFrom === undefined || query.dueBefore === undefined
        ? calendarMessages.rangeHalf
        : calendarRangeProblem(query.dueFrom, query.dueBefore);
    if (problem) context.addIssue({ code: 'custom', path: ['dueFrom'], message: problem });
  });

export const CompletedQuerySchema = z.object({
  after: z.string().min(1).max(256).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const IdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Thin routes: authenticate, parse the input with the shared schemas, call the service, present. */
export function registerProjectsRoutes(
  app: FastifyInstance,
  deps: {
    projects: ProjectsService;
    viewers: ViewerResolver;
    /** Creates per user per minute. */
    createsPerMinute: number;
  },
): void {
  const { projects, viewers } = deps;
  const createLimit = { rateLimit: perUserRateLimit(viewers, deps.createsPerMinute) };

  app.get('/api/projects', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(ListQuerySchema, request.query);
    const body = await projects.listJson(viewer, {
      category: query.category,
      assignedTo: query.assignedTo,
      orderBy: dashboardOrderOf(query.sort),
      limit: query.limit,
      after: query.after,
      dueFrom: query.dueFrom,
      dueBefore: query.dueBefore,
    });
    return reply.type('application/json; charset=utf-8').send(body);
  });

  app.patch('/api/projects/:id', async (request): Promise<{ project: Project }> => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return { project: await projects.update(viewer, id, parseInput(UpdateProjectSchema, request.body)) };
  });

  app.get('/api/completed-projects', async (request): Promise<CompletedProjectPage> => {
    const viewer = await viewers.requireViewer(request);
    const query = parseInput(CompletedQuerySchema, request.query);
    return projects.listCompleted(viewer, query);
  });

  app.get('/api/completed-projects/:id', async (request): Promise<{ project: CompletedProject }> => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return { project: await projects.getCompleted(viewer, id) };
  });

  app.post('/api/completed-projects/:id/reopen', async (request): Promise<{ project: Project }> => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return { project: await projects.reopen(viewer, id) };
  });

  app.delete('/api/completed-projects/:id', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await projects.deleteForGood(viewer, id);
    return reply.status(204).send();
  });

  app.post(
    '/api/projects',
    { config: createLimit },
    async (request, reply): Promise<{ project: Project }> => {
      const viewer = await viewers.requireViewer(request);
      const project = await projects.create(viewer, parseInput(CreateProjectSchema, request.body));
      reply.status(201);
      return { project };
    },
  );

  app.get('/api/projects/:id', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return reply.type('application/json; charset=utf-8').send(await projects.getJson(viewer, id));
  });

  app.delete('/api/projects/:id', async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await projects.complete(viewer, id);
    return reply.status(204).send();
  });
}

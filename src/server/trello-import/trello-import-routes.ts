import type { FastifyInstance } from 'fastify';
import {
  ImportJobParamsSchema,
  TRELLO_BOARD_MAX_BYTES,
  TRELLO_IMPORT_PATHS,
  TrelloImportRequestSchema,
} from '../../common/trello-import';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import type { TrelloImportService } from './trello-import-service';

/**
 * Import from Trello, under /api/admin (403 for members): the preview writes nothing; the import answers
 * 202 with the job, which runs in the background. The two that take a board's export have a body limit
 * of their own (an export carries every action of the board).
 */
export function registerTrelloImportRoutes(
  app: FastifyInstance,
  deps: { viewers: ViewerResolver; trelloImport: TrelloImportService },
): void {
  const { viewers, trelloImport } = deps;
  const boardBody = { bodyLimit: TRELLO_BOARD_MAX_BYTES };

  app.post(TRELLO_IMPORT_PATHS.preview, boardBody, async (request) => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(TrelloImportRequestSchema, request.body);
    return { preview: await trelloImport.preview(viewer, input) };
  });

  app.post(TRELLO_IMPORT_PATHS.start, boardBody, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const input = parseInput(TrelloImportRequestSchema, request.body);
    return reply.status(202).send({ import: await trelloImport.start(viewer, input) });
  });

  app.get(TRELLO_IMPORT_PATHS.job, async (request) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(ImportJobParamsSchema, request.params);
    return { import: await trelloImport.job(viewer, id) };
  });
}

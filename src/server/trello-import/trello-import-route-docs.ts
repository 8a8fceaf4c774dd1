import { z } from 'zod/mini';
import {
  ImportJobParamsSchema,
  ImportJobResultSchema,
  TrelloImportPreviewSchema,
  TrelloImportRequestSchema,
} from '../../common/trello-import';
import { describeRoutes, jsonBody } from '../http/api-docs';

const tag = 'Importers';
const body =
  "`board` is the board's JSON export as Trello writes it (Menu, Print, export and share, Export as JSON; " +
  'at most 20 MB, 10,000 cards), checked whole: a file that is not one is refused (400) with the paths of ' +
  'its first problems in `fields.board`, and nothing is written. `labelCategories` maps label ids to ' +
  "categories (absent: the categories the labels' names suggest), `fallbackCategory` is the category of " +
  'a card with no mapped label (default development), `dueDateWhenMissing` the due date of a card without ' +
  'one (default today + 30 days). docs/trello-import.md.';

export const trelloImportRouteDocs = describeRoutes([
  {
    method: 'POST',
    path: '/api/admin/imports/trello/preview',
    tag,
    summary: 'What a Trello board would become, and what cannot be mapped; writes nothing (admins)',
    description: body,
    caller: 'admin',
    body: jsonBody(TrelloImportRequestSchema),
    response: {
      status: 200,
      description: 'The preview',
      schema: z.object({ preview: TrelloImportPreviewSchema }),
    },
    errors: ['payload-too-large'],
  },
  {
    method: 'POST',
    path: '/api/admin/imports/trello',
    tag,
    summary: 'Imports a Trello board in the background; a second import of it creates nothing twice (admins)',
    description: `${body} Answers 202 with the import; follow it with GET /api/admin/imports/{id}.`,
    caller: 'admin',
    body: jsonBody(TrelloImportRequestSchema),
    response: { status: 202, description: 'The import, queued', schema: ImportJobResultSchema },
    errors: ['payload-too-large'],
  },
  {
    method: 'GET',
    path: '/api/admin/imports/{id}',
    tag,
    summary: "An import's status and progress (admins)",
    caller: 'admin',
    params: ImportJobParamsSchema,
    response: { status: 200, description: 'The import', schema: ImportJobResultSchema },
    errors: ['not-found'],
  },
]);

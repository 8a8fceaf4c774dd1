import type { Kysely } from 'kysely';
import {
  trelloImportMessages,
  type ImportJob,
  type ImportJobStatus,
  type TrelloImportPreview,
  type TrelloImportRequest,
} from '../../common/trello-import';
import { notFound } from '../core/app-error';
import { newId } from '../core/ids';
import { nowIso } from '../core/time';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { requireAdmin } from '../team/admin-rules';
import type { TrelloBoard } from './trello-board-format';
import {
  choicesFor,
  planTrelloImport,
  type Account,
  type ImportContext,
  type TrelloImportChoices,
} from './trello-import-plan';
import {
  activeAccountsByEmailKey,
  findImportJob,
  importedTargets,
  insertImportJob,
  type ImportJobRow,
} from './trello-import-repository';
import { existingProjectIds } from '../projects/imported-projects-repository';

/** What a job row keeps to run: the board as validated, the choices made, and who imports. */
export interface TrelloJobPayload {
  board: TrelloBoard;
  choices: TrelloImportChoices;
  adminId: string;
}

/**
 * An admin's Trello import (docs/decisions/081-trello-import.md): the preview, which writes nothing; the
 * start, which checks the whole file and the choices, then queues a job that the runner writes card by
 * card in the background; and the job's status.
 */
export class TrelloImportService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      /** Wakes this instance's runner once a job is queued. */
      wake: () => void;
    },
  ) {}

  async preview(viewer: Viewer, request: TrelloImportRequest): Promise<TrelloImportPreview> {
    requireAdmin(viewer);
    const board = await parseBoard(request.board);
    const now = new Date();
    const choices = choicesFor(board, request, now);
    const context = await importContext(this.deps.db, board, now);
    return planTrelloImport(board, choices, context).preview;
  }

  async start(viewer: Viewer, request: TrelloImportRequest): Promise<ImportJob> {
    requireAdmin(viewer);
    const board = await parseBoard(request.board);
    const choices = choicesFor(board, request, new Date());
    const payload: TrelloJobPayload = { board, choices, adminId: viewer.uid };
    const id = newId();
    await insertImportJob(this.deps.db, {
      id,
      source: 'trello',
      title: board.name.trim() || 'Trello board',
      payload: JSON.stringify(payload),
      totalItems: board.cards.length,
      createdBy: viewer.uid,
      now: nowIso(),
    });
    this.deps.wake();
    return this.job(viewer, id);
  }

  async job(viewer: Viewer, id: string): Promise<ImportJob> {
    requireAdmin(viewer);
    const row = await findImportJob(this.deps.db, id);
    if (!row) throw notFound(trelloImportMessages.importNotFound);
    return presentJob(row);
  }
}

/** The board format's schemas are built at the first import, not at every server's start (idle memory). */
async function parseBoard(input: unknown): Promise<TrelloBoard> {
  const { parseTrelloBoard } = await import('./trello-board-format');
  return parseTrelloBoard(input);
}

/** What is here that the plan depends on: the accounts members may match, what earlier runs imported. */
export async function importContext(
  db: Kysely<Database>,
  board: TrelloBoard,
  now: Date,
): Promise<ImportContext> {
  const emails = board.members.flatMap((member) => {
    const email = member.email?.trim().toLowerCase();
    return email ? [email] : [];
  });
  const accounts = await activeAccountsByEmailKey(db, emails);
  const accountsByEmail = new Map<string, Account>(
    accounts.map((account) => [account.email_key, { id: account.id, displayName: account.display_name }]),
  );
  const cards = await importedTargets(
    db,
    'trello-card',
    board.cards.map((card) => card.id),
  );
  const stillThere = await existingProjectIds(db, [...cards.values()]);
  const importedCards = new Map<string, string | null>(
    [...cards].map(([cardId, projectId]) => [cardId, stillThere.has(projectId) ? projectId : null]),
  );
  const comments = await importedTargets(
    db,
    'trello-comment',
    board.comments.map((comment) => comment.id),
  );
  return { accountsByEmail, importedCards, importedComments: new Set(comments.keys()), now };
}

function presentJob(row: Omit<ImportJobRow, 'payload'>): ImportJob {
  return {
    id: row.id,
    source: 'trello',
    status: row.status as ImportJobStatus,
    title: row.title,
    totalCards: Number(row.total_items),
    processedCards: Number(row.processed_items),
    projectsCreated: Number(row.projects_created),
    commentsCreated: Number(row.comments_created),
    skipped: Number(row.skipped),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
  };
}

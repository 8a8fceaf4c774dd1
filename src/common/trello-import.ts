import { z } from 'zod/mini';
import { isCalendarDay, PROJECT_CATEGORIES } from './projects';

/**
 * Import from Trello (docs/decisions/081-trello-import.md): the admin routes' request and answer shapes,
 * their limits and their messages. Imported by path (never through index.ts), so only the admin import
 * screen's chunk and the server carry it.
 */

export const TRELLO_IMPORT_PATHS = {
  preview: '/api/admin/imports/trello/preview',
  start: '/api/admin/imports/trello',
  /** With `{id}`: GET /api/admin/imports/{id}, an import's status and progress. */
  job: '/api/admin/imports/:id',
} as const;

/** A board's JSON export is large (every action, every card's badges): a body limit of its own. */
export const TRELLO_BOARD_MAX_BYTES = 20 * 1024 * 1024;
/** Cards one import may hold: each becomes a project, in a background job. */
export const TRELLO_CARDS_MAX = 10_000;
/** Cards without a due date get the day the admin picks; without a choice, this many days from today. */
export const TRELLO_DEFAULT_DUE_IN_DAYS = 30;
/** The category of a card none of whose labels the admin mapped, unless the admin picks another. */
export const TRELLO_DEFAULT_CATEGORY = 'development';
/** Cards the preview lists one by one (the counts cover all of them). */
export const TRELLO_PREVIEW_CARDS_MAX = 500;

export const trelloImportMessages = {
  boardInvalid:
    "This file is not a Trello board's JSON export (on the board: Menu, Print, export and share, Export as JSON). Nothing was imported.",
  tooManyCards: `An import takes at most ${TRELLO_CARDS_MAX} cards. Split the board, or archive and delete old cards first.`,
  categoryInvalid: `Map each label to one of: ${PROJECT_CATEGORIES.join(', ')}.`,
  labelUnknown: 'A label in the mapping is not on this board. Preview the file again.',
  dueDateInvalid: 'Choose the due date of cards without one as a day (YYYY-MM-DD).',
  importNotFound: 'This import does not exist.',
} as const;

const CategorySchema = z.enum(PROJECT_CATEGORIES, { error: trelloImportMessages.categoryInvalid });

/**
 * Both routes' body: the export as Trello writes it, and the admin's choices (each optional: the preview
 * answers with the defaults it used). The board's own shape is checked by the server as a whole.
 */
export const TrelloImportRequestSchema = z.object({
  board: z.record(z.string(), z.unknown(), { error: trelloImportMessages.boardInvalid }),
  /** Trello label id → category. A card takes the category of its first mapped label. */
  labelCategories: z.optional(
    z.record(z.string().check(z.minLength(1), z.maxLength(64)), CategorySchema, {
      error: trelloImportMessages.categoryInvalid,
    }),
  ),
  /** The category of a card with no mapped label. */
  fallbackCategory: z.optional(CategorySchema),
  /** The due date of a card without one. */
  dueDateWhenMissing: z.optional(
    z
      .string({ error: trelloImportMessages.dueDateInvalid })
      .check(z.refine(isCalendarDay, trelloImportMessages.dueDateInvalid)),
  ),
});
export type TrelloImportRequest = z.infer<typeof TrelloImportRequestSchema>;

export const ImportJobParamsSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
});

const PreviewCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: CategorySchema,
  dueDate: z.string(),
  /** False when the card had no due date and takes `dueDateWhenMissing`. */
  dueDateFromCard: z.boolean(),
  /** Archived on Trello (the card, or its list): imported as a completed project. */
  completed: z.boolean(),
  /** The accounts its members matched, by display name. */
  assignees: z.array(z.string()),
  comments: z.number(),
  /** Imported by an earlier run: nothing of it is created again (new comments on it still are). */
  alreadyImported: z.boolean(),
});

const PreviewLabelSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.nullable(z.string()),
  cards: z.number(),
  /** The category its name suggests, or null. */
  suggestedCategory: z.nullable(CategorySchema),
  /** The category it maps to in this preview (the request's choice, else the suggestion); null: unmapped. */
  category: z.nullable(CategorySchema),
});

const PreviewMemberSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  username: z.string(),
  cards: z.number(),
  /** The account whose email the export gives for this member; null: left unassigned (`unmatchedReason`). */
  account: z.nullable(z.object({ id: z.string(), displayName: z.string() })),
  unmatchedReason: z.nullable(z.string()),
});

export const TrelloImportPreviewSchema = z.object({
  boardName: z.string(),
  dueDateWhenMissing: z.string(),
  fallbackCategory: CategorySchema,
  projects: z.object({ toCreate: z.number(), completed: z.number(), alreadyImported: z.number() }),
  comments: z.object({
    toCreate: z.number(),
    alreadyImported: z.number(),
    /** Comments on cards that are not in the export (deleted cards): left out. */
    withoutCard: z.number(),
  }),
  cardsWithoutDueDate: z.number(),
  /** The first cards, in the board's order (all of them up to 500). */
  cards: z.array(PreviewCardSchema),
  labels: z.array(PreviewLabelSchema),
  members: z.array(PreviewMemberSchema),
  /** What is imported but not quite as it was (a name shortened, a long comment cut). */
  notes: z.array(z.string()),
});
export type TrelloImportPreview = z.infer<typeof TrelloImportPreviewSchema>;

const IMPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

const ImportJobSchema = z.object({
  id: z.string(),
  source: z.literal('trello'),
  status: z.enum(IMPORT_JOB_STATUSES),
  /** The board's name. */
  title: z.string(),
  totalCards: z.number(),
  processedCards: z.number(),
  projectsCreated: z.number(),
  commentsCreated: z.number(),
  /** Cards and comments an earlier run had imported (or that could not be), left as they are. */
  skipped: z.number(),
  /** Why a failed import stopped (what it had written stays, and a new run goes on from there). */
  error: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.nullable(z.string()),
});
export type ImportJob = z.infer<typeof ImportJobSchema>;

export const ImportJobResultSchema = z.object({ import: ImportJobSchema });

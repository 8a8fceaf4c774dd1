import { z } from 'zod';
import { isCalendarDay } from '../../common/projects';
import { TRELLO_CARDS_MAX, trelloImportMessages } from '../../common/trello-import';
import { AppError } from '../core/app-error';

/**
 * A Trello board's JSON export (on the board: Menu, Print, export and share, Export as JSON), the fields
 * the importer reads (docs/trello-import.md). Everything else Trello writes (badges, limits, prefs, every
 * other kind of action) is ignored and dropped by the parse. The whole file is checked before anything is
 * written; a file that does not match is refused with the path of its first problems.
 */

/** Trello ids are 24 hex digits; anything id-like of reasonable length is taken (keys of imported rows). */
const trelloId = () => z.string().min(1).max(64);
/** A date and time whose UTC day is a calendar day here (years 1000 to 9999, as `isCalendarDay` takes). */
const isoDate = () =>
  z.string().refine((value) => {
    const time = Date.parse(value);
    return !Number.isNaN(time) && isCalendarDay(new Date(time).toISOString().slice(0, 10));
  }, 'not an ISO 8601 date and time');

const CardSchema = z.object({
  id: trelloId(),
  name: z.string(),
  desc: z.string().default(''),
  /** The due date and time (ISO 8601, UTC), or null. */
  due: isoDate().nullish(),
  /** Archived. */
  closed: z.boolean().default(false),
  idList: trelloId(),
  idLabels: z.array(trelloId()).default([]),
  idMembers: z.array(trelloId()).default([]),
  idChecklists: z.array(trelloId()).default([]),
  attachments: z.array(z.object({ name: z.string().default(''), url: z.string() })).default([]),
  /** The card's last change: the completion time of an archived card. */
  dateLastActivity: isoDate().nullish(),
  url: z.string().optional(),
});
export type TrelloCard = z.infer<typeof CardSchema>;

const ListSchema = z.object({ id: trelloId(), name: z.string(), closed: z.boolean().default(false) });

const LabelSchema = z.object({
  id: trelloId(),
  /** Trello allows a label with a color and no name. */
  name: z.string().default(''),
  color: z.string().nullish(),
});
export type TrelloLabel = z.infer<typeof LabelSchema>;

const MemberSchema = z.object({
  id: trelloId(),
  fullName: z.string().default(''),
  username: z.string().default(''),
  /** Only in some exports (the exporting admin's own, an enterprise's managed members). */
  email: z.string().nullish(),
});
type TrelloMember = z.infer<typeof MemberSchema>;

const ChecklistSchema = z.object({
  id: trelloId(),
  idCard: trelloId(),
  name: z.string().default(''),
  checkItems: z
    .array(
      z.object({
        name: z.string(),
        state: z.enum(['complete', 'incomplete']),
        pos: z.number().optional(),
      }),
    )
    .default([]),
});
type TrelloChecklist = z.infer<typeof ChecklistSchema>;

/** Any action: only `commentCard` ones are read, and checked as `CommentActionSchema`. */
const ActionSchema = z.looseObject({ id: trelloId(), type: z.string() });

const CommentActionSchema = z.object({
  id: trelloId(),
  type: z.literal('commentCard'),
  date: isoDate(),
  data: z.object({ text: z.string(), card: z.object({ id: trelloId() }) }),
  memberCreator: z.object({ fullName: z.string().default(''), username: z.string().default('') }).nullish(),
});
export type TrelloComment = z.infer<typeof CommentActionSchema>;

const BoardSchema = z.object({
  name: z.string(),
  cards: z.array(CardSchema),
  lists: z.array(ListSchema).default([]),
  labels: z.array(LabelSchema).default([]),
  members: z.array(MemberSchema).default([]),
  checklists: z.array(ChecklistSchema).default([]),
  actions: z.array(ActionSchema).default([]),
});

/** The board as the importer reads it: its comments checked and set apart from the other actions. */
export interface TrelloBoard {
  name: string;
  cards: TrelloCard[];
  lists: z.infer<typeof ListSchema>[];
  labels: TrelloLabel[];
  members: TrelloMember[];
  checklists: TrelloChecklist[];
  comments: TrelloComment[];
}

const MAX_LISTED_PROBLEMS = 3;

const pathOf = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)),
    '',
  );

/** A 400 that says the file is not a board's export, and names where (in `fields.board`). */
function refused(problems: readonly string[], message: string = trelloImportMessages.boardInvalid): AppError {
  return new AppError('invalid-argument', message, { board: problems.join('; ') });
}

/**
 * The board of an export, checked whole: its shape, no card or comment twice, at most `TRELLO_CARDS_MAX`
 * cards. Throws a 400 (`trelloImportMessages.boardInvalid`, the problems' paths in `fields.board`).
 */
export function parseTrelloBoard(input: unknown): TrelloBoard {
  const parsed = BoardSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const problems = issues
      .slice(0, MAX_LISTED_PROBLEMS)
      .map((issue) => `${pathOf(issue.path) || '(the whole file)'}: ${issue.message}`);
    if (issues.length > problems.length) problems.push(`and ${issues.length - problems.length} more`);
    throw refused(problems);
  }
  const board = parsed.data;
  if (board.cards.length > TRELLO_CARDS_MAX) {
    throw refused([`cards: ${board.cards.length} cards`], trelloImportMessages.tooManyCards);
  }
  const comments: TrelloComment[] = [];
  const problems: string[] = [];
  board.actions.forEach((action, index) => {
    if (action.type !== 'commentCard') return;
    const comment = CommentActionSchema.safeParse(action);
    if (comment.success) comments.push(comment.data);
    else {
      const issue = comment.error.issues[0];
      problems.push(`actions[${index}]${issue ? `.${pathOf(issue.path)}: ${issue.message}` : ''}`);
    }
  });
  const duplicate = (what: string, ids: readonly string[]): void => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${what} '${id}' appears twice`);
      seen.add(id);
    }
  };
  duplicate(
    'card',
    board.cards.map((card) => card.id),
  );
  duplicate(
    'commentCard action',
    comments.map((comment) => comment.id),
  );
  if (problems.length > 0) throw refused(problems.slice(0, MAX_LISTED_PROBLEMS));
  return {
    name: board.name,
    cards: board.cards,
    lists: board.lists,
    labels: board.labels,
    members: board.members,
    checklists: board.checklists,
    comments,
  };
}

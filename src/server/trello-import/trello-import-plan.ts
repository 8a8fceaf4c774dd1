import { COMMENT_MAX_LENGTH, PROJECT_DETAILS_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from '../../common/limits';
import { MAX_ASSIGNEES, PROJECT_CATEGORIES, type ProjectCategory } from '../../common/projects';
import {
  TRELLO_DEFAULT_CATEGORY,
  TRELLO_DEFAULT_DUE_IN_DAYS,
  TRELLO_PREVIEW_CARDS_MAX,
  trelloImportMessages,
  type TrelloImportPreview,
  type TrelloImportRequest,
} from '../../common/trello-import';
import { AppError } from '../core/app-error';
import type { TrelloBoard, TrelloCard, TrelloComment, TrelloLabel } from './trello-board-format';

/**
 * What a Trello board becomes here (docs/decisions/081-trello-import.md), worked out with no database:
 * the preview shows it, the background job writes it card by card. Each card is a project created by the
 * importing admin; its comments are the admin's too, each starting with its original author and time.
 */

/** The admin's choices, with the defaults filled in. */
export interface TrelloImportChoices {
  /** Label id → category: the request's mapping when it sent one, else the names' suggestions. */
  labelCategories: Record<string, ProjectCategory>;
  fallbackCategory: ProjectCategory;
  dueDateWhenMissing: string;
}

export interface Account {
  id: string;
  displayName: string;
}

/** What is already here: the accounts members may match, and what earlier runs imported. */
export interface ImportContext {
  /** Active accounts by lower-cased email. */
  accountsByEmail: ReadonlyMap<string, Account>;
  /** Card id → the project an earlier run made of it, or null when that project has since been deleted. */
  importedCards: ReadonlyMap<string, string | null>;
  /** Comment (action) ids an earlier run imported. */
  importedComments: ReadonlySet<string>;
  now: Date;
}

interface PlannedComment {
  actionId: string;
  content: string;
  createdAt: string;
}

interface PlannedProject {
  name: string;
  details: string;
  dueDate: string;
  dueDateFromCard: boolean;
  category: ProjectCategory;
  assigneeIds: string[];
  createdAt: string;
  /** When it was archived on Trello (its last activity); null for an open card. */
  completedAt: string | null;
}

export interface PlannedCard {
  cardId: string;
  /** Null when an earlier run imported it: only its new comments are written, on `existingProjectId`. */
  project: PlannedProject | null;
  existingProjectId: string | null;
  comments: PlannedComment[];
}

export interface TrelloImportPlan {
  cards: PlannedCard[];
  preview: TrelloImportPreview;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ELLIPSIS = '…';

/** The choices as the request gives them, defaults filled in; a label not on the board is refused. */
export function choicesFor(
  board: TrelloBoard,
  request: Omit<TrelloImportRequest, 'board'>,
  now: Date,
): TrelloImportChoices {
  const labelIds = new Set(board.labels.map((label) => label.id));
  if (request.labelCategories) {
    for (const id of Object.keys(request.labelCategories)) {
      if (!labelIds.has(id)) {
        throw new AppError('invalid-argument', trelloImportMessages.labelUnknown, {
          labelCategories: trelloImportMessages.labelUnknown,
        });
      }
    }
  }
  const suggested: Record<string, ProjectCategory> = {};
  for (const label of board.labels) {
    const category = suggestedCategory(label);
    if (category) suggested[label.id] = category;
  }
  return {
    labelCategories: request.labelCategories ?? suggested,
    fallbackCategory: request.fallbackCategory ?? TRELLO_DEFAULT_CATEGORY,
    dueDateWhenMissing:
      request.dueDateWhenMissing ??
      new Date(now.getTime() + TRELLO_DEFAULT_DUE_IN_DAYS * DAY_MS).toISOString().slice(0, 10),
  };
}

const fold = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();

/**
 * The category a label's name suggests: its name is a category, the start of one ('Dev', 'Mkt' is not),
 * or contains one ('Design review'). Null otherwise.
 */
export function suggestedCategory(label: Pick<TrelloLabel, 'name'>): ProjectCategory | null {
  const name = fold(label.name);
  if (name === '') return null;
  for (const category of PROJECT_CATEGORIES) {
    if (name === category || (name.length >= 3 && category.startsWith(name))) return category;
  }
  for (const category of PROJECT_CATEGORIES) {
    if (name.split(' ').includes(category)) return category;
  }
  return null;
}

/** Everything the board becomes, and the preview of it. */
export function planTrelloImport(
  board: TrelloBoard,
  choices: TrelloImportChoices,
  context: ImportContext,
): TrelloImportPlan {
  const notes: string[] = [];
  const closedLists = new Set(board.lists.filter((list) => list.closed).map((list) => list.id));
  const members = matchMembers(board, context.accountsByEmail);
  const checklistsOf = groupBy(board.checklists, (checklist) => checklist.idCard);
  const cardIds = new Set(board.cards.map((card) => card.id));
  const commentsOf = groupBy(
    [...board.comments].sort((a, b) => Date.parse(a.date) - Date.parse(b.date)),
    (comment) => comment.data.card.id,
  );
  const withoutCard = board.comments.filter((comment) => !cardIds.has(comment.data.card.id)).length;
  let commentsAlreadyImported = 0;
  let commentsOnDeletedProjects = 0;

  const cards: PlannedCard[] = [];
  const previewCards: TrelloImportPreview['cards'] = [];
  for (const card of board.cards) {
    const imported = context.importedCards.get(card.id);
    const label = `Card '${shortened(card.name.trim(), 60)}'`;
    const comments: PlannedComment[] = [];
    for (const comment of commentsOf.get(card.id) ?? []) {
      if (context.importedComments.has(comment.id)) commentsAlreadyImported += 1;
      else if (imported === null) commentsOnDeletedProjects += 1;
      else comments.push(plannedComment(comment, label, notes));
    }
    const project =
      imported === undefined
        ? plannedProject(card, {
            choices,
            context,
            archived: card.closed || closedLists.has(card.idList),
            checklists: checklistsOf.get(card.id) ?? [],
            assigneeIds: assigneesOf(card, members, label, notes),
            label,
            notes,
          })
        : null;
    if (project || comments.length > 0) {
      cards.push({ cardId: card.id, project, existingProjectId: imported ?? null, comments });
    }
    if (previewCards.length < TRELLO_PREVIEW_CARDS_MAX) {
      const shown =
        project ??
        plannedProject(card, {
          choices,
          context,
          archived: false,
          checklists: [],
          assigneeIds: [],
          label,
          notes: [],
        });
      previewCards.push({
        id: card.id,
        name: shown.name,
        category: shown.category,
        dueDate: shown.dueDate,
        dueDateFromCard: shown.dueDateFromCard,
        completed: card.closed || closedLists.has(card.idList),
        assignees: (project?.assigneeIds ?? []).map((id) => members.accountNames.get(id) ?? id),
        comments: comments.length,
        alreadyImported: imported !== undefined,
      });
    }
  }
  if (commentsOnDeletedProjects > 0) {
    notes.push(
      `${commentsOnDeletedProjects} new comment(s) are on cards whose imported project was deleted here: left out.`,
    );
  }
  if (withoutCard > 0) {
    notes.push(`${withoutCard} comment(s) are on cards that are not in the export: left out.`);
  }
  const created = cards.flatMap((card) => (card.project ? [card.project] : []));
  const labelUse = countBy(board.cards.flatMap((card) => card.idLabels));
  return {
    cards,
    preview: {
      boardName: board.name,
      dueDateWhenMissing: choices.dueDateWhenMissing,
      fallbackCategory: choices.fallbackCategory,
      projects: {
        toCreate: created.length,
        completed: created.filter((project) => project.completedAt !== null).length,
        alreadyImported: board.cards.length - created.length,
      },
      comments: {
        toCreate: cards.reduce((sum, card) => sum + card.comments.length, 0),
        alreadyImported: commentsAlreadyImported,
        withoutCard,
      },
      cardsWithoutDueDate: created.filter((project) => !project.dueDateFromCard).length,
      cards: previewCards,
      labels: board.labels.map((label) => ({
        id: label.id,
        name: label.name,
        color: label.color ?? null,
        cards: labelUse.get(label.id) ?? 0,
        suggestedCategory: suggestedCategory(label),
        category: choices.labelCategories[label.id] ?? null,
      })),
      members: members.preview,
      notes,
    },
  };
}

interface MatchedMembers {
  accountOf: Map<string, Account>;
  accountNames: Map<string, string>;
  preview: TrelloImportPreview['members'];
}

/** Members matched to accounts by the email the export gives; the others are left unassigned. */
function matchMembers(board: TrelloBoard, accountsByEmail: ReadonlyMap<string, Account>): MatchedMembers {
  const accountOf = new Map<string, Account>();
  const accountNames = new Map<string, string>();
  const cardsOf = countBy(board.cards.flatMap((card) => card.idMembers));
  const preview = board.members.map((member) => {
    const email = member.email?.trim().toLowerCase() ?? '';
    const account = email ? accountsByEmail.get(email) : undefined;
    if (account) {
      accountOf.set(member.id, account);
      accountNames.set(account.id, account.displayName);
    }
    return {
      id: member.id,
      fullName: member.fullName,
      username: member.username,
      cards: cardsOf.get(member.id) ?? 0,
      account: account ? { id: account.id, displayName: account.displayName } : null,
      unmatchedReason: account
        ? null
        : email
          ? 'No active account here has the email address the export gives: left unassigned.'
          : 'The export gives no email address for this member: left unassigned.',
    };
  });
  return { accountOf, accountNames, preview };
}

function assigneesOf(card: TrelloCard, members: MatchedMembers, label: string, notes: string[]): string[] {
  const ids: string[] = [];
  for (const memberId of card.idMembers) {
    const account = members.accountOf.get(memberId);
    if (account && !ids.includes(account.id)) ids.push(account.id);
  }
  if (ids.length > MAX_ASSIGNEES) {
    notes.push(`${label}: only its first ${MAX_ASSIGNEES} matched members are assigned.`);
    ids.length = MAX_ASSIGNEES;
  }
  return ids;
}

function plannedProject(
  card: TrelloCard,
  deps: {
    choices: TrelloImportChoices;
    context: ImportContext;
    archived: boolean;
    checklists: readonly TrelloBoard['checklists'][number][];
    assigneeIds: string[];
    label: string;
    notes: string[];
  },
): PlannedProject {
  const { choices, context, label, notes } = deps;
  let name = card.name.trim().replace(/\s+/g, ' ') || 'Untitled Trello card';
  if (name.length > PROJECT_NAME_MAX_LENGTH) {
    notes.push(`${label}: its name is cut to ${PROJECT_NAME_MAX_LENGTH} characters.`);
    name = shortened(name, PROJECT_NAME_MAX_LENGTH);
  }
  let details = cardDetails(card, deps.checklists);
  if (details.length > PROJECT_DETAILS_MAX_LENGTH) {
    notes.push(`${label}: its details are cut to ${PROJECT_DETAILS_MAX_LENGTH} characters.`);
    details = shortened(details, PROJECT_DETAILS_MAX_LENGTH);
  }
  const mapped = card.idLabels.map((id) => choices.labelCategories[id]).find((category) => category);
  const now = context.now.toISOString();
  const createdAt = creationTimeOf(card.id) ?? now;
  return {
    name,
    details,
    dueDate: card.due ? new Date(card.due).toISOString().slice(0, 10) : choices.dueDateWhenMissing,
    dueDateFromCard: Boolean(card.due),
    category: mapped ?? choices.fallbackCategory,
    assigneeIds: deps.assigneeIds,
    createdAt,
    completedAt: deps.archived ? latest(card.dateLastActivity ?? now, createdAt) : null,
  };
}

/**
 * The description, then each checklist as lines under its name (☑ done, ☐ not), then the attachments'
 * links, then the card's address on Trello. Never empty: a project's details are required.
 */
function cardDetails(card: TrelloCard, checklists: readonly TrelloBoard['checklists'][number][]): string {
  const parts: string[] = [];
  if (card.desc.trim()) parts.push(card.desc.trim());
  const order = new Map(card.idChecklists.map((id, index) => [id, index]));
  const sorted = [...checklists].sort(
    (a, b) => (order.get(a.id) ?? Infinity) - (order.get(b.id) ?? Infinity),
  );
  for (const checklist of sorted) {
    const items = [...checklist.checkItems]
      .sort((a, b) => (a.pos ?? 0) - (b.pos ?? 0))
      .map((item) => `${item.state === 'complete' ? '☑' : '☐'} ${item.name}`);
    parts.push([`${checklist.name.trim() || 'Checklist'}:`, ...items].join('\n'));
  }
  if (card.attachments.length > 0) {
    const links = card.attachments.map((attachment) =>
      attachment.name && attachment.name !== attachment.url
        ? `- ${attachment.name}: ${attachment.url}`
        : `- ${attachment.url}`,
    );
    parts.push(['Attachments:', ...links].join('\n'));
  }
  parts.push(card.url ? `Imported from Trello: ${card.url}` : 'Imported from Trello.');
  return parts.join('\n\n');
}

/**
 * A comment's text, under its original author and time (the comment itself is the importing admin's: a
 * Trello member has no account here to write it as). Its time stays the original one.
 */
function plannedComment(comment: TrelloComment, label: string, notes: string[]): PlannedComment {
  const author =
    comment.memberCreator?.fullName.trim() || comment.memberCreator?.username.trim() || 'A Trello member';
  const at = new Date(comment.date).toISOString();
  const header = `${author} on Trello, ${at.slice(0, 10)} ${at.slice(11, 16)} UTC:\n`;
  let content = header + comment.data.text.trim();
  if (content.length > COMMENT_MAX_LENGTH) {
    notes.push(`${label}: a comment by ${author} is cut to ${COMMENT_MAX_LENGTH} characters.`);
    content = shortened(content, COMMENT_MAX_LENGTH);
  }
  return { actionId: comment.id, content, createdAt: at };
}

/** A Trello id is a MongoDB ObjectId: its first 8 hex digits are the card's creation time in seconds. */
function creationTimeOf(id: string): string | null {
  if (!/^[0-9a-f]{24}$/i.test(id)) return null;
  const seconds = Number.parseInt(id.slice(0, 8), 16);
  return seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
}

const latest = (a: string, b: string): string =>
  Date.parse(a) >= Date.parse(b) ? new Date(a).toISOString() : b;

const shortened = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - ELLIPSIS.length).trimEnd()}${ELLIPSIS}`;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function countBy(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMENT_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from '../../common/limits';
import { trelloImportMessages } from '../../common/trello-import';
import { AppError } from '../core/app-error';
import { parseTrelloBoard, type TrelloBoard } from './trello-board-format';
import {
  choicesFor,
  planTrelloImport,
  suggestedCategory,
  type ImportContext,
  type TrelloImportPlan,
} from './trello-import-plan';

/** The board's JSON export in the documented format (test/fixtures/trello/board.json), fresh per test. */
const exportJson = (): Record<string, unknown> =>
  JSON.parse(
    readFileSync(new URL('../../../test/fixtures/trello/board.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

const CARD = {
  landing: '65a0f0c0a1b2c3d4e5f6c001',
  pressRelease: '65a0f0c0a1b2c3d4e5f6c002',
  ci: '65a0f0c0a1b2c3d4e5f6c003',
  pricing: '65a0f0c0a1b2c3d4e5f6c004',
  loginBug: '65a0f0c0a1b2c3d4e5f6c005',
};
const LABEL = {
  design: '65a0f0c0a1b2c3d4e5f6f001',
  dev: '65a0f0c0a1b2c3d4e5f6f002',
  marketing: '65a0f0c0a1b2c3d4e5f6f003',
  urgent: '65a0f0c0a1b2c3d4e5f6f004',
  unnamed: '65a0f0c0a1b2c3d4e5f6f005',
};
const NOW = new Date('2026-11-28T10:00:00.000Z');
const GRACE = { id: 'account-grace', displayName: 'Grace H.' };

const context = (overrides: Partial<ImportContext> = {}): ImportContext => ({
  accountsByEmail: new Map([['grace.hopper@example.test', GRACE]]),
  importedCards: new Map(),
  importedComments: new Set(),
  now: NOW,
  ...overrides,
});

function plan(
  board: TrelloBoard = parseTrelloBoard(exportJson()),
  request: Parameters<typeof choicesFor>[1] = {},
  overrides: Partial<ImportContext> = {},
): TrelloImportPlan {
  return planTrelloImport(board, choicesFor(board, request, NOW), context(overrides));
}

const cardOf = (result: TrelloImportPlan, id: string) => {
  const card = result.cards.find((planned) => planned.cardId === id);
  if (!card) throw new Error(`no planned card ${id}`);
  return card;
};

/** The 400 a call throws, or a failure if it throws nothing (or something else). */
function refusal(call: () => unknown): AppError {
  try {
    call();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the Trello board export format', () => {
  it('reads the documented fields, keeps only commentCard actions, and drops what it does not use', () => {
    const board = parseTrelloBoard(exportJson());
    expect(board.name).toBe('Launch plan');
    expect(board.cards.map((card) => card.id)).toEqual(Object.values(CARD));
    expect(board.comments.map((comment) => comment.id)).toEqual([
      '65a0f0c0a1b2c3d4e5f6a005',
      '65a0f0c0a1b2c3d4e5f6a003',
      '65a0f0c0a1b2c3d4e5f6a002',
      '65a0f0c0a1b2c3d4e5f6a001',
    ]);
    expect(board.members.map((member) => member.email ?? null)).toEqual([
      'grace.hopper@example.test',
      'linus@nowhere.example.test',
      null,
    ]);
    expect(board.cards[0]).not.toHaveProperty('badges');
  });

  it.each([
    ['not an object at all', 'just text', '(the whole file)'],
    ['no cards', { name: 'Board', lists: [] }, 'cards'],
    ['a card without a list', { name: 'B', cards: [{ id: 'c1', name: 'Card' }] }, 'cards[0].idList'],
    [
      'a due date that is not a date',
      { name: 'B', cards: [{ id: 'c1', name: 'Card', idList: 'l1', due: 'next week' }] },
      'cards[0].due',
    ],
    [
      'a due date past the year 9999',
      { name: 'B', cards: [{ id: 'c1', name: 'Card', idList: 'l1', due: '+020000-01-01T00:00:00.000Z' }] },
      'cards[0].due',
    ],
    [
      'a checklist item in an unknown state',
      {
        name: 'B',
        cards: [],
        checklists: [{ id: 'k1', idCard: 'c1', name: 'K', checkItems: [{ name: 'x', state: 'half' }] }],
      },
      'checklists[0].checkItems[0].state',
    ],
  ])('refuses %s with a message and the path of the problem', (_what, input, path) => {
    const error = refusal(() => parseTrelloBoard(input));
    expect(error.status).toBe(400);
    expect(error.message).toBe(trelloImportMessages.boardInvalid);
    expect(error.fields?.board).toContain(path);
  });

  it('refuses a comment action without its text or card, and a card twice', () => {
    const broken = exportJson();
    const actions = broken.actions as { data: Record<string, unknown> }[];
    delete actions[0]!.data.text;
    expect(refusal(() => parseTrelloBoard(broken)).fields?.board).toContain('actions[0].data.text');

    const twice = exportJson();
    const cards = twice.cards as unknown[];
    cards.push(cards[0]);
    expect(refusal(() => parseTrelloBoard(twice)).fields?.board).toContain(
      `card '${CARD.landing}' appears twice`,
    );
  });

  it('refuses a mapping that names a label not on the board', () => {
    const board = parseTrelloBoard(exportJson());
    const error = refusal(() => choicesFor(board, { labelCategories: { nope: 'design' } }, NOW));
    expect(error.message).toBe(trelloImportMessages.labelUnknown);
  });
});

describe('what a board becomes', () => {
  it('makes each card a project: name, details with checklists and attachment links, due day, category', () => {
    const landing = cardOf(plan(), CARD.landing).project!;
    expect(landing).toMatchObject({
      name: 'Design the landing page',
      dueDate: '2031-03-15',
      dueDateFromCard: true,
      // Its first label (Urgent) suggests nothing; its second (Design) does.
      category: 'design',
      assigneeIds: [GRACE.id],
      completedAt: null,
      // The card id's first 8 hex digits: its creation time on Trello.
      createdAt: new Date(0x65a0f0c0 * 1000).toISOString(),
    });
    expect(landing.details).toBe(
      [
        'Hero section, sign-up form and pricing.',
        '',
        'Before launch:',
        '☐ Draw wireframes',
        '☑ Pick colours',
        '',
        'Attachments:',
        '- mockup.png: https://trello.com/1/cards/65a0f0c0a1b2c3d4e5f6c001/attachments/65a0f0c0a1b2c3d4e5f6aa01/download/mockup.png',
        '- https://www.figma.com/file/abc/landing',
        '',
        'Imported from Trello: https://trello.com/c/AbCd1234/1-design-the-landing-page',
      ].join('\n'),
    );
  });

  it('archives: a closed card, and a card on a closed list, become completed projects', () => {
    const result = plan();
    expect(cardOf(result, CARD.ci).project!.completedAt).toBe('2024-05-20T16:45:00.000Z');
    expect(cardOf(result, CARD.pricing).project!.completedAt).toBe('2024-04-10T09:00:00.000Z');
    expect(cardOf(result, CARD.loginBug).project!.completedAt).toBeNull();
    expect(result.preview.projects).toEqual({ toCreate: 5, completed: 2, alreadyImported: 0 });
    expect(result.preview.cards.filter((card) => card.completed).map((card) => card.id)).toEqual([
      CARD.ci,
      CARD.pricing,
    ]);
  });

  it('gives a card without a due date the chosen day, by default today + 30 days, and says so', () => {
    const byDefault = plan();
    expect(byDefault.preview.dueDateWhenMissing).toBe('2026-12-28');
    expect(byDefault.preview.cardsWithoutDueDate).toBe(2);
    expect(cardOf(byDefault, CARD.pressRelease).project).toMatchObject({
      dueDate: '2026-12-28',
      dueDateFromCard: false,
    });
    const chosen = plan(undefined, { dueDateWhenMissing: '2027-01-15' });
    expect(cardOf(chosen, CARD.pressRelease).project!.dueDate).toBe('2027-01-15');
  });

  it("suggests categories from labels' names, lists every label, and takes the admin's mapping instead", () => {
    const suggested = plan();
    expect(suggested.preview.labels).toEqual([
      {
        id: LABEL.design,
        name: 'Design',
        color: 'green',
        cards: 1,
        suggestedCategory: 'design',
        category: 'design',
      },
      {
        id: LABEL.dev,
        name: 'Dev',
        color: 'blue',
        cards: 1,
        suggestedCategory: 'development',
        category: 'development',
      },
      {
        id: LABEL.marketing,
        name: 'Marketing',
        color: 'orange',
        cards: 1,
        suggestedCategory: 'marketing',
        category: 'marketing',
      },
      { id: LABEL.urgent, name: 'Urgent', color: 'red', cards: 2, suggestedCategory: null, category: null },
      { id: LABEL.unnamed, name: '', color: 'purple', cards: 1, suggestedCategory: null, category: null },
    ]);
    // No mapped label: the fallback category.
    expect(cardOf(suggested, CARD.loginBug).project!.category).toBe('development');

    const mapped = plan(undefined, {
      labelCategories: { [LABEL.urgent]: 'sales' },
      fallbackCategory: 'marketing',
    });
    expect(cardOf(mapped, CARD.landing).project!.category).toBe('sales');
    expect(cardOf(mapped, CARD.loginBug).project!.category).toBe('sales');
    // The mapping sent is the whole mapping: Dev is no longer mapped, so CI takes the fallback.
    expect(cardOf(mapped, CARD.ci).project!.category).toBe('marketing');
    expect(mapped.preview.labels.find((label) => label.id === LABEL.dev)).toMatchObject({
      suggestedCategory: 'development',
      category: null,
    });
  });

  it.each([
    ['Design', 'design'],
    ['dev', 'development'],
    ['DÉVELOPPEMENT', null],
    ['Marketing campaign', 'marketing'],
    ['Sales', 'sales'],
    ['de', null],
    ['Bug', null],
  ] as const)('suggests for the label %j: %j', (name, category) => {
    expect(suggestedCategory({ name })).toBe(category);
  });

  it('matches members by the email the export gives, and lists who is left unassigned and why', () => {
    const result = plan();
    expect(result.preview.members).toEqual([
      {
        id: '65a0f0c0a1b2c3d4e5f6e001',
        fullName: 'Grace Hopper',
        username: 'gracehopper',
        cards: 2,
        account: GRACE,
        unmatchedReason: null,
      },
      {
        id: '65a0f0c0a1b2c3d4e5f6e002',
        fullName: 'Linus Torvalds',
        username: 'linus',
        cards: 1,
        account: null,
        unmatchedReason: expect.stringContaining('No active account here has the email'),
      },
      {
        id: '65a0f0c0a1b2c3d4e5f6e003',
        fullName: 'Alan Turing',
        username: 'alanturing',
        cards: 1,
        account: null,
        unmatchedReason: expect.stringContaining('no email address'),
      },
    ]);
    expect(cardOf(result, CARD.pressRelease).project!.assigneeIds).toEqual([]);
    expect(result.preview.cards.find((card) => card.id === CARD.landing)!.assignees).toEqual([
      GRACE.displayName,
    ]);
  });

  it('keeps comments oldest first, with their original author and time in the text and as createdAt', () => {
    const result = plan();
    expect(cardOf(result, CARD.landing).comments).toEqual([
      {
        actionId: '65a0f0c0a1b2c3d4e5f6a002',
        content: 'Grace Hopper on Trello, 2024-05-02 09:30 UTC:\nFirst mock-up attached.',
        createdAt: '2024-05-02T09:30:00.000Z',
      },
      {
        actionId: '65a0f0c0a1b2c3d4e5f6a003',
        content: 'Linus Torvalds on Trello, 2024-05-03 11:15 UTC:\nCan we make the button bigger?',
        createdAt: '2024-05-03T11:15:00.000Z',
      },
    ]);
    expect(result.preview.comments).toEqual({ toCreate: 3, alreadyImported: 0, withoutCard: 1 });
    expect(result.preview.notes).toContain('1 comment(s) are on cards that are not in the export: left out.');
  });

  it('creates nothing again that an earlier run imported, but brings new comments to its project', () => {
    const result = plan(undefined, undefined, {
      importedCards: new Map([
        [CARD.landing, 'project-landing'],
        [CARD.ci, null],
        [CARD.pressRelease, 'project-press'],
        [CARD.pricing, 'project-pricing'],
        [CARD.loginBug, 'project-login'],
      ]),
      importedComments: new Set(['65a0f0c0a1b2c3d4e5f6a002']),
    });
    expect(result.cards).toEqual([
      {
        cardId: CARD.landing,
        project: null,
        existingProjectId: 'project-landing',
        comments: [expect.objectContaining({ actionId: '65a0f0c0a1b2c3d4e5f6a003' })],
      },
    ]);
    expect(result.preview.projects).toEqual({ toCreate: 0, completed: 0, alreadyImported: 5 });
    expect(result.preview.comments).toEqual({ toCreate: 1, alreadyImported: 1, withoutCard: 1 });
    expect(result.preview.cards.every((card) => card.alreadyImported)).toBe(true);
  });

  it('cuts what is longer than our limits, and says so', () => {
    const json = exportJson();
    const cards = json.cards as Record<string, unknown>[];
    cards[1]!.name = 'N'.repeat(PROJECT_NAME_MAX_LENGTH + 50);
    const actions = json.actions as { data: Record<string, unknown> }[];
    actions[0]!.data.text = 'x'.repeat(COMMENT_MAX_LENGTH);
    const result = plan(parseTrelloBoard(json));
    expect(cardOf(result, CARD.pressRelease).project!.name).toHaveLength(PROJECT_NAME_MAX_LENGTH);
    expect(cardOf(result, CARD.ci).comments[0]!.content).toHaveLength(COMMENT_MAX_LENGTH);
    expect(result.preview.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`its name is cut to ${PROJECT_NAME_MAX_LENGTH} characters`),
        expect.stringContaining(`cut to ${COMMENT_MAX_LENGTH} characters`),
      ]),
    );
  });
});

/** What the page reads from a chosen file before the server checks it. */
export interface BoardFile {
  name: string;
  /**
   * The file's JSON, or its text when it is not JSON: the server then refuses it with its own message
   * (the page does not judge the format; the server's check is the one that counts).
   */
  board: unknown;
  /** Checklists on the file's cards and their items: they become text in the projects' details. */
  checklists: { lists: number; items: number };
}

/** Reads a chosen or dropped file. */
export async function readBoardFile(file: File): Promise<BoardFile> {
  const text = await file.text();
  let board: unknown;
  try {
    board = JSON.parse(text);
  } catch {
    board = text;
  }
  return { name: file.name, board, checklists: countChecklists(board) };
}

function countChecklists(board: unknown): { lists: number; items: number } {
  if (!isRecord(board) || !Array.isArray(board.cards) || !Array.isArray(board.checklists))
    return { lists: 0, items: 0 };
  const cardIds = new Set(board.cards.flatMap((card) => (isRecord(card) ? [card.id] : [])));
  let lists = 0;
  let items = 0;
  for (const checklist of board.checklists) {
    if (!isRecord(checklist) || !cardIds.has(checklist.idCard)) continue;
    lists += 1;
    if (Array.isArray(checklist.checkItems)) items += checklist.checkItems.length;
  }
  return { lists, items };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

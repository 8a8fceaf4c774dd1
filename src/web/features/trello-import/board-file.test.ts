import { describe, expect, it } from 'vitest';
import { readBoardFile } from './board-file';

// The parts of a board's export the page reads (the server checks the rest).
const fixture = JSON.stringify({
  name: 'Launch plan',
  cards: [{ id: 'card-1' }, { id: 'card-2' }],
  checklists: [
    {
      id: 'list-1',
      idCard: 'card-1',
      checkItems: [{ id: 'item-1' }, { id: 'item-2' }],
    },
  ],
});

describe('readBoardFile', () => {
  it("reads the export's JSON and counts the checklists on its cards and their items", async () => {
    const read = await readBoardFile(new File([fixture], 'board.json', { type: 'application/json' }));
    expect(read.name).toBe('board.json');
    expect(read.board).toMatchObject({ name: 'Launch plan' });
    expect(read.checklists).toEqual({ lists: 1, items: 2 });
  });

  it('leaves out a checklist whose card is not in the file', async () => {
    const board = JSON.parse(fixture) as { checklists: Array<Record<string, unknown>> };
    board.checklists.push({ ...board.checklists[0], id: 'orphan', idCard: 'deleted-card' });
    const read = await readBoardFile(new File([JSON.stringify(board)], 'board.json'));
    expect(read.checklists).toEqual({ lists: 1, items: 2 });
  });

  it('keeps a file that is not JSON as its text, for the server to refuse with its message', async () => {
    const read = await readBoardFile(new File(['not { json'], 'notes.txt'));
    expect(read.board).toBe('not { json');
    expect(read.checklists).toEqual({ lists: 0, items: 0 });
  });
});

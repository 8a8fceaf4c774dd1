import { describe, expect, it } from 'vitest';
import { mentionToken } from '../../../common';
import { mentionQueryAt, toDraft, toStoredText } from './mention-draft';

const ann = 'A'.repeat(22);
const annLee = 'B'.repeat(22);

describe('the comment box’s mentions', () => {
  it('sends picked names as tokens, longest first, and leaves the rest as typed', () => {
    const picked = new Map([
      ['Ann', ann],
      ['Ann Lee', annLee],
    ]);
    expect(toStoredText('@Ann Lee and @Ann, not @Annabel or @Bob', picked)).toBe(
      `${mentionToken(annLee)} and ${mentionToken(ann)}, not @Annabel or @Bob`,
    );
  });

  it('turns stored tokens back into names for an edit, keeping a nameless one as a token', () => {
    const gone = 'C'.repeat(22);
    const stored = `hi ${mentionToken(ann)} and ${mentionToken(gone)}`;
    const { draft, picked } = toDraft(stored, (id) => (id === ann ? 'Ann' : null));
    expect(draft).toBe(`hi @Ann and ${mentionToken(gone)}`);
    expect(toStoredText(draft, picked)).toBe(stored);
  });

  it('finds the @query being typed before the caret', () => {
    expect(mentionQueryAt('Thanks @ad', 10)).toEqual({ start: 7, query: 'ad' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail me@home', 12)).toBeNull();
    expect(mentionQueryAt('@ad done', 8)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { mentionToken, mentionedUserIds, splitMentions } from './mentions';

const ada = 'AAAAAAAAAAAAAAAAAAAAAA';
const bob = 'Bob_Bob-Bob_Bob-Bob_Bo';

describe('mentions', () => {
  it('finds each mentioned id once, in order', () => {
    const text = `hi ${mentionToken(bob)} and ${mentionToken(ada)}, ${mentionToken(bob)} again`;
    expect(mentionedUserIds(text)).toEqual([bob, ada]);
  });

  it('ignores look-alikes that are not tokens', () => {
    expect(mentionedUserIds('mail <@short> or @ada or <@AAAAAAAAAAAAAAAAAAAAAAA>')).toEqual([]);
  });

  it('splits text around mentions', () => {
    expect(splitMentions(`${mentionToken(ada)}: see ${mentionToken(bob)}!`)).toEqual([
      { kind: 'mention', userId: ada },
      { kind: 'text', text: ': see ' },
      { kind: 'mention', userId: bob },
      { kind: 'text', text: '!' },
    ]);
    expect(splitMentions('plain')).toEqual([{ kind: 'text', text: 'plain' }]);
  });
});

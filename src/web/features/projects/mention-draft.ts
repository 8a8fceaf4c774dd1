import { mentionToken, splitMentions } from '../../../common';

/**
 * The comment box shows mentions as '@Name' (docs/decisions/027-mentions-and-who-is-looking.md) and keeps
 * the users picked from the suggestions; only those become `<@userId>` tokens when the comment is sent, so
 * '@someone' typed by hand stays plain text.
 */
export type PickedMentions = ReadonlyMap<string, string>;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text to store: each '@Name' of a picked user (not followed by more of a word) as their token. */
export function toStoredText(draft: string, picked: PickedMentions): string {
  // Longest names first, so '@Ann Lee' is not taken for '@Ann' followed by ' Lee'.
  const byLength = [...picked.keys()].sort((a, b) => b.length - a.length);
  if (byLength.length === 0) return draft;
  const pattern = new RegExp(`@(${byLength.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  return draft.replace(pattern, (whole, name: string) => {
    const id = picked.get(name);
    return id === undefined ? whole : mentionToken(id);
  });
}

/**
 * Stored text back in the box for an edit: tokens of known users as '@Name' (and picked, so they turn
 * back into the same tokens); a token of a user without a name stays as it is, so it is not lost.
 */
export function toDraft(
  stored: string,
  nameOf: (id: string) => string | null | undefined,
): { draft: string; picked: Map<string, string> } {
  const picked = new Map<string, string>();
  const draft = splitMentions(stored)
    .map((segment) => {
      if (segment.kind === 'text') return segment.text;
      const name = nameOf(segment.userId);
      if (!name || (picked.has(name) && picked.get(name) !== segment.userId))
        return mentionToken(segment.userId);
      picked.set(name, segment.userId);
      return `@${name}`;
    })
    .join('');
  return { draft, picked };
}

/** An '@' being typed just before the caret: where it starts and what follows it so far. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|\s)@([^\s@]{0,40})$/u.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

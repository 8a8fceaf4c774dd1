/**
 * @mentions in comment text. A mention is stored as a token naming the user's id, never their name, so it
 * keeps pointing at them after a rename; clients render each token as the user's current display name.
 * Ids are 22 url-safe base64 characters (the server's `newId`).
 */
const MENTION_TOKEN = /<@([A-Za-z0-9_-]{22})>/g;

/** The token the comment box inserts for a chosen user. */
export const mentionToken = (userId: string): string => `<@${userId}>`;

/** Every distinct user id mentioned in `text`, in order of first appearance. */
export function mentionedUserIds(text: string): string[] {
  const ids = new Set<string>();
  for (const match of text.matchAll(MENTION_TOKEN)) ids.add(match[1]!);
  return [...ids];
}

export type CommentSegment = { kind: 'text'; text: string } | { kind: 'mention'; userId: string };

/** Splits comment text into plain runs and mentions, for rendering. */
export function splitMentions(text: string): CommentSegment[] {
  const segments: CommentSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION_TOKEN)) {
    if (match.index > last) segments.push({ kind: 'text', text: text.slice(last, match.index) });
    segments.push({ kind: 'mention', userId: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

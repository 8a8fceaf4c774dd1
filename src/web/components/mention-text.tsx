import { useEffect, useSyncExternalStore } from 'react';
import { splitMentions, type UserProfile } from '../../common';
import { dojo } from '../lib/dojo-client';
import './mention-text.css';

/** Shown for a mention whose user no longer has a profile (deleted or deactivated). */
const DELETED_USER = 'Deleted user';

/**
 * The current names of mentioned users, shared by every mention on the page: one live subscription per
 * user however often they are mentioned, so a rename shows everywhere at once. `undefined`: not known yet;
 * `null`: no such (active) user.
 */
const names = new Map<string, { name: string | null | undefined; holders: number; stop: () => void }>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function hold(id: string): void {
  const entry = names.get(id);
  if (entry) {
    entry.holders += 1;
    return;
  }
  const created = { name: undefined as string | null | undefined, holders: 1, stop: () => {} };
  names.set(id, created);
  created.stop = dojo.subscribe<UserProfile>(
    { kind: 'doc', collection: 'users', id },
    {
      next: (docs) => {
        created.name = docs[0]?.displayName ?? null;
        changed();
      },
      error: () => {
        created.name = null;
        changed();
      },
    },
  );
}

function release(id: string): void {
  const entry = names.get(id);
  if (!entry) return;
  entry.holders -= 1;
  if (entry.holders > 0) return;
  names.delete(id);
  entry.stop();
}

const subscribeToNames = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const currentVersion = () => version;

/** Follows the names of `ids` while mounted; returns a lookup of the current ones. */
export function useUserNames(ids: readonly string[]): (id: string) => string | null | undefined {
  const key = [...new Set(ids)].sort().join(',');
  useEffect(() => {
    if (key === '') return undefined;
    const held = key.split(',');
    for (const id of held) hold(id);
    return () => {
      for (const id of held) release(id);
    };
  }, [key]);
  useSyncExternalStore(subscribeToNames, currentVersion);
  return (id) => names.get(id)?.name;
}

/** What a mention reads as: '@Name', '@…' while the name is on its way, or 'Deleted user'. */
const mentionLabel = (name: string | null | undefined): string =>
  name === null ? DELETED_USER : `@${name ?? '…'}`;

/** Comment text as people read it: each mention as the user's current name. */
export function readableText(text: string, nameOf: (id: string) => string | null | undefined): string {
  return splitMentions(text)
    .map((segment) => (segment.kind === 'text' ? segment.text : mentionLabel(nameOf(segment.userId))))
    .join('');
}

/**
 * Comment text with its mentions (`<@userId>` tokens, see common/mentions.ts) shown as the users' current
 * names, live. React escapes the plain runs; a mention is marked up as such, and reads as '@Name'.
 */
export function MentionText({ text }: { text: string }) {
  const segments = splitMentions(text);
  const nameOf = useUserNames(
    segments.flatMap((segment) => (segment.kind === 'mention' ? [segment.userId] : [])),
  );
  return (
    <>
      {segments.map((segment, index) =>
        segment.kind === 'text' ? (
          segment.text
        ) : (
          <span
            key={index}
            className={nameOf(segment.userId) === null ? 'mention mention-deleted' : 'mention'}
            data-user-id={segment.userId}
          >
            {mentionLabel(nameOf(segment.userId))}
          </span>
        ),
      )}
    </>
  );
}

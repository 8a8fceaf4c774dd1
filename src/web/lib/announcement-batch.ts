import { announcements } from '../../common';

/** Changes told as a count ('3 new projects'). */
export type CountedChangeKind = 'projectsAdded' | 'projectsRemoved' | 'commentsAdded';

/** A change someone else made, as the screens report it to the announcer. */
export type LiveChange =
  | { kind: CountedChangeKind; count: number }
  | { kind: 'presence'; userId: string; name: string; online: boolean };

/** Changes gathered since the last announcement. */
export interface ChangeBatch {
  projectsAdded: number;
  projectsRemoved: number;
  commentsAdded: number;
  /** Per user: the state before the batch and the latest one (a flicker back and forth says nothing). */
  presence: Map<string, { name: string; was: boolean; now: boolean }>;
}

export function emptyBatch(): ChangeBatch {
  return { projectsAdded: 0, projectsRemoved: 0, commentsAdded: 0, presence: new Map() };
}

export function addChange(batch: ChangeBatch, change: LiveChange): void {
  if (change.kind !== 'presence') {
    batch[change.kind] += change.count;
    return;
  }
  const known = batch.presence.get(change.userId);
  if (known) {
    known.now = change.online;
    known.name = change.name;
  } else {
    batch.presence.set(change.userId, { name: change.name, was: !change.online, now: change.online });
  }
}

/**
 * Forgets the counted changes of these kinds not yet told: the screen that reported them shows another
 * list now, where they are not news (a filter's result was just said instead).
 */
export function withdrawChanges(batch: ChangeBatch, kinds: readonly CountedChangeKind[]): void {
  for (const kind of kinds) batch[kind] = 0;
}

/** One sentence for the whole batch, e.g. '3 new projects. Ana is online.'; empty when nothing changed. */
export function describeBatch(batch: ChangeBatch): string {
  const parts: string[] = [];
  if (batch.projectsAdded > 0) parts.push(announcements.projectsAdded(batch.projectsAdded));
  if (batch.projectsRemoved > 0) parts.push(announcements.projectsRemoved(batch.projectsRemoved));
  if (batch.commentsAdded > 0) parts.push(announcements.commentsAdded(batch.commentsAdded));
  const changed = [...batch.presence.values()].filter((user) => user.was !== user.now);
  const online = changed.filter((user) => user.now).map((user) => user.name);
  const offline = changed.filter((user) => !user.now).map((user) => user.name);
  if (online.length > 0) parts.push(announcements.cameOnline(online));
  if (offline.length > 0) parts.push(announcements.wentOffline(offline));
  return parts.map((part) => `${part}.`).join(' ');
}

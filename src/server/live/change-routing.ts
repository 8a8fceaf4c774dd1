import type { LiveCollection, LiveDoc, LiveTarget } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Change } from '../db/change-bus';
import type { GroupIndex } from './group-index';
import { matchesWhere, mayBeInRange, rangeField } from './matches-where';
import type { ResultState } from './result-state';
import type { SlicedQueue } from './sliced-queue';

/** What routing needs of a query group. */
export interface RoutedGroup {
  target: LiveTarget;
  /** The viewer it is evaluated for: any of its subscribers' (their results are equal, `liveGroupKey`). */
  viewer: Viewer;
  /** Names whose reads a changed doc's read-back may share: the owner where results are one viewer's own. */
  readScope: string;
  /** The group's last evaluated result: a change to one of its docs always needs a re-evaluation. */
  state: ResultState;
}

/**
 * The groups a burst of changes can affect, which are then re-evaluated. A query group is affected when a
 * changed doc was in its last result, or now matches its filters; a change that carries the doc's
 * filterable fields (`after`) is decided from them, otherwise each changed doc is read once per read
 * scope. A resync affects every group.
 */
export async function groupsReachedBy<G extends RoutedGroup>(
  burst: { changes: Change[]; resync: boolean },
  deps: {
    groups: ReadonlyMap<string, G>;
    index: GroupIndex<G>;
    readDoc: (collection: LiveCollection, id: string, viewer: Viewer) => Promise<LiveDoc | null>;
    queue: SlicedQueue;
  },
): Promise<Set<G>> {
  const { groups, index, readDoc, queue } = deps;
  const dirty = new Set<G>();
  if (burst.resync) for (const group of groups.values()) dirty.add(group);
  const current = new Map<string, LiveDoc | null>();
  for (const change of burst.changes) {
    if (change.collection === 'sessions') continue;
    const candidates = index.candidates(change);
    for (const group of candidates === 'all' ? groups.values() : candidates) {
      // Changes × groups can be a million pairs (1,000 members' bells, 1,000 changes): await only when due.
      if (queue.sliceUsed()) await queue.yieldWhenSliceUsed();
      const { target } = group;
      if (dirty.has(group)) continue;
      if (target.collection !== change.collection) {
        if (showsUserOf(change, group)) dirty.add(group);
        continue;
      }
      if (target.kind === 'doc') {
        if (target.id === change.id) dirty.add(group);
        continue;
      }
      if (group.state.json.has(change.id)) {
        dirty.add(group);
        continue;
      }
      const { after } = change;
      if (after === null) continue;
      const bound = rangeField(target);
      if (
        after &&
        (target.where ?? []).every((clause) => Object.hasOwn(after, clause.field)) &&
        (bound === undefined || Object.hasOwn(after, bound))
      ) {
        if (matchesWhere(after, target.where) && mayBeInRange(after, target)) dirty.add(group);
        continue;
      }
      const key = JSON.stringify([change.collection, change.id, group.readScope]);
      if (!current.has(key)) current.set(key, await readDoc(change.collection, change.id, group.viewer));
      const doc = current.get(key);
      if (doc && matchesWhere(doc, target.where) && mayBeInRange(doc, target)) dirty.add(group);
    }
  }
  return dirty;
}

/**
 * Projects, comments and project viewers show their people's names and pictures (joined when read), so a
 * profile change (not a presence flag) re-reads every project or comment result that names the user.
 */
function showsUserOf(change: Change, group: RoutedGroup): boolean {
  if (change.collection !== 'users' || change.scope !== undefined) return false;
  if (!['projects', 'comments', 'project_viewers'].includes(group.target.collection)) return false;
  const quotedId = JSON.stringify(change.id);
  for (const json of group.state.json.values()) if (json.includes(quotedId)) return true;
  return false;
}

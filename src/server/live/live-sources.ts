import type { LiveCollection, LiveDoc, LiveQuery, LiveTarget } from '../../common';
import type { Viewer } from '../core/viewer';

/**
 * What the live service can read, per collection, with the same permission rules as the HTTP API. A source
 * reads through its feature's service, the one HTTP uses (`users/users-live-source.ts`,
 * `projects/projects-live-source.ts`), so a read rule has one home.
 *
 * The hub's authorization rule (docs/decisions/042-every-live-viewer-authorized.md): every subscriber is
 * authorized by `authorize` before it joins or starts a group, and a result that belongs to a viewer is
 * never shared with another one (`resultsBelongTo`). Both are required, so a new source cannot forget them.
 */
export interface LiveSource {
  /**
   * Refuses a target this viewer may not follow by throwing the `AppError` to answer (403 for another's
   * data, 400 for a query the source cannot answer). Asked for every subscriber, first or not.
   */
  authorize(target: LiveTarget, viewer: Viewer): void | Promise<void>;
  /**
   * `everyone`: every viewer that `authorize` admits gets the same result for the same target, so one
   * group serves them all. `viewer`: a result is its viewer's own, so the hub keeps one group per viewer.
   */
  resultsBelongTo: 'everyone' | 'viewer';
  query(query: LiveQuery, viewer: Viewer): Promise<LiveDoc[]>;
  /** One document, or null when there is none (or the viewer may not see it). */
  find(id: string, viewer: Viewer): Promise<LiveDoc | null>;
  /**
   * Optional: the results of many of this collection's queries at once, when one read answers them
   * cheaper than one read each (a comment that raises 1,000 bells). An entry left undefined is
   * evaluated on its own by `query`, which also reports its errors.
   */
  queryMany?(queries: { query: LiveQuery; viewer: Viewer }[]): Promise<(LiveDoc[] | undefined)[]>;
}

export type LiveSources = Partial<Record<LiveCollection, LiveSource>>;

/**
 * The identity of the group a viewer's subscription joins: the target, and the viewer's id wherever the
 * result is the viewer's own. Equal keys share one evaluation per change and one result.
 */
export function liveGroupKey(source: LiveSource, target: LiveTarget, viewer: Viewer): string {
  const owner = source.resultsBelongTo === 'viewer' ? viewer.uid : null;
  return JSON.stringify([owner, target]);
}

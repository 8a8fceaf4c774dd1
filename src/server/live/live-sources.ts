import type { LiveCollection, LiveDoc, LiveQuery } from '../../common';
import type { Viewer } from '../auth/viewer';

/**
 * What the live service can read, per collection, with the same permission rules as the HTTP API.
 * Every signed-in user may read every user profile and project (docs/product-spec.md#6-permissions), so results do not depend on
 * the viewer yet; a source whose results do must include the viewer in `groupKey`. A source reads through
 * its feature's service, the one HTTP uses (`users/users-live-source.ts`,
 * `projects/projects-live-source.ts`), so a read rule has one home.
 */
export interface LiveSource {
  query(query: LiveQuery, viewer: Viewer): Promise<LiveDoc[]>;
  /** One document, or null when there is none (or the viewer may not see it). */
  find(id: string, viewer: Viewer): Promise<LiveDoc | null>;
  /** Subscriptions with equal keys share one evaluation per change. */
  groupKey(target: unknown, viewer: Viewer): string;
  /**
   * Optional: the results of many of this collection's queries at once, when one read answers them
   * cheaper than one read each (a comment that raises 1,000 bells). An entry left undefined is
   * evaluated on its own by `query`, which also reports its errors.
   */
  queryMany?(queries: { query: LiveQuery; viewer: Viewer }[]): Promise<(LiveDoc[] | undefined)[]>;
}

export type LiveSources = Partial<Record<LiveCollection, LiveSource>>;

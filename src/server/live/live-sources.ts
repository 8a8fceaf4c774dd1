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
}

export type LiveSources = Partial<Record<LiveCollection, LiveSource>>;

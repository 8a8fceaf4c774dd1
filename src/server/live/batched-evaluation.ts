import type { LiveCollection, LiveDoc, LiveQuery, LiveTarget } from '../../common';
import type { Logger } from '../core/logger';
import type { Viewer } from '../core/viewer';
import type { LiveSources } from './live-sources';

/**
 * Results of the groups whose source answers many queries with one read (`queryMany`), when at least two
 * groups of that source need one; the rest are left out, for the caller to evaluate one by one.
 */
export async function evaluateBatched<G extends { target: LiveTarget; viewer: Viewer }>(
  groups: Set<G>,
  sources: LiveSources,
  log: Logger,
): Promise<Map<G, LiveDoc[]>> {
  const byCollection = new Map<LiveCollection, { group: G; query: LiveQuery }[]>();
  for (const group of groups) {
    const { target } = group;
    if (target.kind !== 'query' || !sources[target.collection]?.queryMany) continue;
    const entry = { group, query: target };
    const list = byCollection.get(target.collection);
    if (list) list.push(entry);
    else byCollection.set(target.collection, [entry]);
  }
  const results = new Map<G, LiveDoc[]>();
  for (const [collection, list] of byCollection) {
    if (list.length < 2) continue;
    try {
      const answers = await sources[collection]?.queryMany?.(
        list.map(({ group, query }) => ({ query, viewer: group.viewer })),
      );
      list.forEach(({ group }, index) => {
        const docs = answers?.[index];
        if (docs) results.set(group, docs);
      });
    } catch (error) {
      // Each group is then evaluated on its own, which reports what is wrong with it.
      log.warn({ err: error }, 'live batched re-evaluation failed');
    }
  }
  return results;
}

import { useEffect, useRef } from 'react';
import {
  announcements,
  sortField,
  type DashboardFilter,
  type DashboardSort,
  type Project,
} from '../../../common';
import { useAnnouncer } from '../../hooks/use-announcer';

/** What the hook remembers of the list it last saw. */
interface Seen {
  filter: DashboardFilter;
  sort: DashboardSort;
  createdAt: Map<string, string>;
  /** Each shown project's value of the field the list is sorted by. */
  orderValue: Map<string, string>;
}

/** The list as the user now sees it. */
interface Shown {
  filter: DashboardFilter;
  sort: DashboardSort;
  uid: string;
  docs: readonly Project[];
  hasMore: boolean;
}

/** What changed between two sights of the list: nothing to tell, a new filter's result, or comings and goings. */
type ListNews =
  { kind: 'none' } | { kind: 'filterResult' } | { kind: 'changes'; added: number; removed: number };

export function seenList({ filter, sort, docs }: Shown): Seen {
  const field = sortField(sort);
  return {
    filter,
    sort,
    createdAt: new Map(docs.map((project) => [project.id, project.createdAt])),
    orderValue: new Map(docs.map((project) => [project.id, String(project[field])])),
  };
}

/**
 * What to tell of the list now `shown`, given what was `previous`ly seen (null: the list a visit opens
 * with, which is what the user asked for). Projects the user made are confirmed where they were made;
 * 'Show more' brings older projects, which are not new either.
 */
export function listNews(previous: Seen | null, { filter, sort, uid, docs, hasMore }: Shown): ListNews {
  if (!previous) return { kind: 'none' };
  // A new order shows the same projects differently: nothing came or went.
  if (previous.sort !== sort) return { kind: 'none' };
  if (previous.filter !== filter) return { kind: 'filterResult' };
  const field = sortField(sort);
  const times = [...previous.createdAt.values()].sort();
  const newestBefore = times.at(-1) ?? '';
  const added = docs.filter(
    (project) =>
      !previous.createdAt.has(project.id) &&
      project.createdAt >= newestBefore &&
      project.createdBy.id !== uid,
  ).length;
  // The last loaded page is full while more follow: a project arriving above pushes its last one out of
  // view, which was not removed. In the list's order, 'after the last shown' is what the sort says.
  const lastShown = String(docs.at(-1)?.[field] ?? '');
  const pastTheEnd = (value: string) => (sort === 'newest' ? value <= lastShown : value >= lastShown);
  const ids = new Set(docs.map((project) => project.id));
  const removed = [...previous.orderValue].filter(
    ([id, value]) => !ids.has(id) && !(hasMore && pastTheEnd(value)),
  ).length;
  return { kind: 'changes', added, removed };
}

/**
 * Tells the dashboard's changes (docs/decisions/019-announcements.md): the result of a filter the user
 * chose, and projects other people added or removed (`listNews`).
 */
export function useListAnnouncements(
  filter: DashboardFilter,
  sort: DashboardSort,
  uid: string,
  docs: readonly Project[] | null,
  hasMore: boolean,
): void {
  const { say, report, withdraw } = useAnnouncer();
  const seenRef = useRef<Seen | null>(null);

  useEffect(() => {
    if (!docs) return;
    const shown = { filter, sort, uid, docs, hasMore };
    const news = listNews(seenRef.current, shown);
    seenRef.current = seenList(shown);
    if (news.kind === 'filterResult') {
      // Projects the last filter's list reported and that are not yet told are not news in this one.
      withdraw(['projectsAdded', 'projectsRemoved']);
      say(announcements.filterResult(filter, docs.length, hasMore));
    } else if (news.kind === 'changes') {
      if (news.added > 0) report({ kind: 'projectsAdded', count: news.added });
      if (news.removed > 0) report({ kind: 'projectsRemoved', count: news.removed });
    }
    // Run again with the same docs (e.g. 'Show more' raised the limit), nothing differs: nothing is said.
  }, [docs, filter, sort, uid, hasMore, say, report, withdraw]);
}

import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { type DashboardFilter, type DashboardSort } from '../../../common';
import { appMessages } from '../../../common/app-messages';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { ExportLinks } from '../../components/export-links';
import { FilterBar } from '../../components/filter-bar';
import { ProjectList } from './project-list';
import { SortSelect } from './sort-select';
import { useListAnnouncements } from './use-list-announcements';
import { useProjectList } from './use-project-list';
import './dashboard.css';
import { PageTitle } from '../../components/page-title';

// Called by the app when the dashboard is the screen a visit opens on (app-routes.tsx).
export { preloadFirstPage } from './project-list-query';

interface View {
  filter: DashboardFilter;
  sort: DashboardSort;
}

export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useAuthContext();
  const [view, setView] = useState<View>({ filter: 'all', sort: 'newest' });
  // The pressed filter and the chosen order answer at once; the list they choose follows in a render React
  // may interrupt, showing what it had until then.
  const listView = useDeferredValue(view);
  const { docs, error, isPending, isLoadingMore, hasMore, showMore } = useProjectList(
    listView.filter,
    user?.uid ?? '',
    listView.sort,
  );
  useListAnnouncements(listView.filter, listView.sort, user?.uid ?? '', docs, hasMore);
  const listRef = useRef<HTMLUListElement>(null);
  // After 'Show more', focus moves to the first card that was added (the button may be gone by then).
  const focusFromRef = useRef<number | null>(null);

  useEffect(() => {
    const from = focusFromRef.current;
    if (from === null || isLoadingMore || !docs) return;
    focusFromRef.current = null;
    const cards = listRef.current?.querySelectorAll<HTMLElement>('.project-card');
    if (cards && cards.length > 0) cards[Math.min(from, cards.length - 1)]?.focus();
  }, [docs, isLoadingMore]);

  const changeFilter = (filter: DashboardFilter) => {
    focusFromRef.current = null;
    setView((current) => ({ ...current, filter }));
  };

  const changeSort = (sort: DashboardSort) => {
    focusFromRef.current = null;
    setView((current) => ({ ...current, sort }));
  };

  const onShowMore = () => {
    if (isLoadingMore || !docs) return;
    focusFromRef.current = docs.length;
    showMore();
  };

  return (
    <div className="dashboard">
      <PageTitle>Dashboard</PageTitle>
      <FilterBar current={view.filter} onChange={changeFilter} />
      <SortSelect current={view.sort} onChange={changeSort} />
      <ExportLinks
        list="dashboard"
        what="the dashboard"
        params={{
          category: view.filter === 'all' || view.filter === 'mine' ? undefined : view.filter,
          assignedTo: view.filter === 'mine' ? user?.uid : undefined,
          sort: view.sort,
        }}
      />
      {error && (
        <p className="error" role="alert">
          {appMessages.fetchFailed}
        </p>
      )}
      {isPending && <p className="loading">{appMessages.loading}</p>}
      {docs && docs.length === 0 && <p className="dashboard-empty">{appMessages.noProjects}</p>}
      {docs && docs.length > 0 && <ProjectList projects={docs} ref={listRef} />}
      {hasMore && (
        <div className="dashboard-more">
          <button className="btn" type="button" onClick={onShowMore} aria-disabled={isLoadingMore}>
            {isLoadingMore ? appMessages.loading : 'Show more'}
          </button>
        </div>
      )}
    </div>
  );
}

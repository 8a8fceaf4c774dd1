import { useRef } from 'react';
import { messages, type CompletedProject } from '../../../common';
import { DojoError } from '../../../sdk';
import { ActionOutcome, useRowAction } from '../../components/action-outcome';
import { ErrorAlert } from '../../components/error-alert';
import { ExportLinks } from '../../components/export-links';
import { PageTitle } from '../../components/page-title';
import { ShowMoreButton } from '../../components/show-more-button';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useCursorPages, type CursorPage } from '../../hooks/use-cursor-pages';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { dojo } from '../../lib/dojo-client';
import { CompletedProjectItem, type CompletedAction } from './completed-project-item';
import { mayManage } from './project-at-address';
import './completed-projects-page.css';

const TITLE_ID = 'completed-title';

/** The completed projects, the latest completion first (`GET /api/completed-projects`); no query. */
const completedPage = (_query: string, after: string | null): Promise<CursorPage<CompletedProject>> =>
  dojo.projects
    .listCompleted({ after })
    .then((page) => ({ items: page.projects, nextCursor: page.nextCursor }));

/**
 * The projects 'Mark as Complete' took off the dashboards, the latest completion first, with 'Show more'.
 * Their creator or an admin can reopen one (it is back on every dashboard, live) or delete it for good.
 */
export function CompletedProjectsPage() {
  useDocumentTitle('Completed projects');
  const { user } = useAuthContext();
  const listRef = useRef<HTMLUListElement>(null);
  const list = useCursorPages({
    query: '',
    fetchPage: completedPage,
    listRef,
    itemSelector: '.completed-name',
  });
  const projects = list.items;
  const { pending, run, ...outcome } = useRowAction<CompletedAction>();
  // Reopened or deleted here: it is no longer a completed project.
  const remove = (id: string) => list.update((rows) => rows.filter((project) => project.id !== id));

  const act = (project: CompletedProject, action: CompletedAction) =>
    run(
      project.id,
      action,
      async () => {
        let done: string;
        if (action === 'reopen') {
          await dojo.projects.reopen(project.id);
          done = `"${project.name}" is open again: it is back on the dashboard.`;
        } else {
          await dojo.projects.deleteForGood(project.id);
          done = `"${project.name}" and its comments are deleted for good.`;
        }
        remove(project.id);
        // Its item is gone: focus goes to the page's heading rather than to the document's start.
        document.getElementById(TITLE_ID)?.focus();
        return done;
      },
      (caught) => {
        // Someone else reopened or deleted it meanwhile: it is no longer a completed project.
        if (caught instanceof DojoError && caught.code === 'not-found') remove(project.id);
      },
    );

  return (
    <div className="completed-page">
      <PageTitle id={TITLE_ID}>Completed projects</PageTitle>
      <ExportLinks list="completed" what="the completed projects" />
      <ErrorAlert message={list.error} />
      <ActionOutcome {...outcome} />
      {list.isPending && <p className="loading">{messages.loading}</p>}
      {projects && projects.length === 0 && <p className="completed-empty">No completed projects yet.</p>}
      {projects && projects.length > 0 && (
        <ul className="completed-list" ref={listRef}>
          {projects.map((project) => (
            <CompletedProjectItem
              key={project.id}
              project={project}
              canManage={mayManage(project, user)}
              pending={pending?.id === project.id ? pending.action : null}
              busy={pending !== null}
              onReopen={(row) => void act(row, 'reopen')}
              onDelete={(row) => void act(row, 'delete')}
            />
          ))}
        </ul>
      )}
      {list.hasMore && (
        <ShowMoreButton className="completed-more" loading={list.loadingMore} onShowMore={list.showMore} />
      )}
    </div>
  );
}

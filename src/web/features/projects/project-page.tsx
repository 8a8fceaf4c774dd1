import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { CLIENT_ROUTES, announcements, editProjectPath, messages } from '../../../common';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAttachments } from '../../hooks/use-attachments';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { mayManage, titleWithoutProject, useProjectAtAddress } from './project-at-address';
import { ProjectComments } from './project-comments';
import { ProjectSummary } from './project-summary';
import { ProjectViewers } from './project-viewers';
import { useCompleteProject } from './use-complete-project';
import { useCompletedProject } from './use-completed-project';
import { absoluteTime, relativeTime } from '../../lib/time-format';
import './project-page.css';

export function ProjectPage() {
  const { id = '' } = useParams();
  const { user } = useAuthContext();
  const navigate = useNavigate();
  const { validId, docs, error } = useProjectAtAddress(id);
  const completion = useCompleteProject();
  const { say } = useAnnouncer();
  const attachments = useAttachments();

  // While 'Mark as Complete' waits for its answer, the live subscription may already report the project
  // gone: the page keeps showing it until the call returns (then it navigates, or shows the failure).
  const live = docs?.[0];
  const completing = completion.completing?.id === id ? completion.completing : null;
  const project = live ?? completing ?? undefined;
  const missing = !validId || (docs !== null && docs.length === 0 && !completing);
  // The spec's rule: a project completed while its page is open shows 'No such document exists'. Only a
  // page opened on an already completed project (an old link from search or a notification) looks it up.
  const [shownId, setShownId] = useState<string | null>(null);
  if (live && shownId !== id) setShownId(id);
  const completed = useCompletedProject(id, validId && missing && shownId !== id);
  const completedProject = completed.status === 'found' ? completed.project : undefined;
  const lookingUp = completed.status === 'loading';

  useDocumentTitle(
    project
      ? project.name
      : completedProject
        ? completedProject.name
        : lookingUp
          ? messages.loading
          : titleWithoutProject(missing, error),
  );

  if (project) {
    const isCreator = user !== null && project.createdBy.id === user.uid;
    const canEdit = mayManage(project, user);
    const handleComplete = async () => {
      if (completion.isPending) return;
      if (await completion.complete(project)) {
        say(announcements.projectCompleted);
        await navigate(CLIENT_ROUTES.dashboard);
      }
    };
    return (
      <div className="project-details">
        <ProjectViewers projectId={project.id} />
        <ProjectSummary
          project={project}
          onComplete={isCreator ? () => void handleComplete() : undefined}
          editPath={canEdit ? editProjectPath(project.id) : undefined}
          isCompleting={completion.isPending}
          completeError={completion.error}
        />
        <ProjectComments projectId={project.id} creatorId={project.createdBy.id} />
        {attachments && <attachments.ProjectPanel projectId={project.id} creatorId={project.createdBy.id} />}
      </div>
    );
  }

  if (completedProject) {
    return (
      <div className="project-details">
        <PageTitle>{completedProject.name}</PageTitle>
        <p className="project-completed-notice" role="status">
          {`This project was completed by ${completedProject.completedBy.displayName} `}
          <time dateTime={completedProject.completedAt} title={absoluteTime(completedProject.completedAt)}>
            {relativeTime(completedProject.completedAt)}
          </time>
          {'. '}
          <Link to={CLIENT_ROUTES.completed}>See completed projects</Link>
          {' to reopen it.'}
        </p>
        <p className="project-completed-details">{completedProject.details}</p>
      </div>
    );
  }

  if (missing && !lookingUp) {
    return (
      <div className="project-details">
        <PageTitle>Project</PageTitle>
        <ErrorAlert message={messages.noSuchDocument} />
      </div>
    );
  }

  if (error) {
    return (
      <div className="project-details">
        <PageTitle>Project</PageTitle>
        <ErrorAlert message={messages.documentFailed} />
      </div>
    );
  }

  return (
    <div className="project-details">
      <PageTitle>Project</PageTitle>
      <p className="loading">{messages.loading}</p>
    </div>
  );
}

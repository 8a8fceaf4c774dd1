import { useNavigate, useParams } from 'react-router';
import { CLIENT_ROUTES, announcements, editProjectPath, messages, type Project } from '../../../common';
import { PageTitle } from '../../components/page-title';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useLiveQuery } from '../../hooks/use-live-query';
import { ProjectComments } from './project-comments';
import { ProjectSummary } from './project-summary';
import { ProjectViewers } from './project-viewers';
import { useCompleteProject } from './use-complete-project';
import './project-page.css';

/** Ids the server could ever have made; anything else cannot exist, so it is not asked for. */
const MAX_ID_LENGTH = 64;

export function ProjectPage() {
  const { id = '' } = useParams();
  const validId = id.length > 0 && id.length <= MAX_ID_LENGTH;
  const { user } = useAuthContext();
  const navigate = useNavigate();
  const { docs, error } = useLiveQuery<Project>(validId ? { kind: 'doc', collection: 'projects', id } : null);
  const completion = useCompleteProject();
  const { say } = useAnnouncer();

  // While 'Mark as Complete' waits for its answer, the live subscription may already report the project
  // gone: the page keeps showing it until the call returns (then it navigates, or shows the failure).
  const live = docs?.[0];
  const completing = completion.completing?.id === id ? completion.completing : null;
  const project = live ?? completing ?? undefined;
  const missing = !validId || (docs !== null && docs.length === 0 && !completing);

  useDocumentTitle(
    project
      ? project.name
      : missing
        ? messages.noSuchDocument
        : error
          ? messages.documentFailed
          : messages.loading,
  );

  if (project) {
    const isCreator = user !== null && project.createdBy.id === user.uid;
    const canEdit = isCreator || user?.role === 'admin';
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
        <ProjectComments projectId={project.id} />
      </div>
    );
  }

  if (missing) {
    return (
      <div className="project-details">
        <PageTitle>Project</PageTitle>
        <p className="error" role="alert">
          {messages.noSuchDocument}
        </p>
      </div>
    );
  }

  if (error) {
    return (
      <div className="project-details">
        <PageTitle>Project</PageTitle>
        <p className="error" role="alert">
          {messages.documentFailed}
        </p>
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

import { Link } from 'react-router';
import { formatCalendarDay, type Project } from '../../../common';
import { AvatarList } from '../../components/avatar-list';
import { BusyButton } from '../../components/busy-button';
import { DueStatus } from '../../components/due-status';
import { ErrorAlert } from '../../components/error-alert';
import { PageTitle } from '../../components/page-title';

export interface ProjectSummaryProps {
  project: Project;
  /** Shown only to the project's creator (docs/product-spec.md#6-permissions). */
  onComplete?: (() => void) | undefined;
  /** The edit page's address; shown to the creator and to admins. */
  editPath?: string | undefined;
  isCompleting: boolean;
  completeError: string | null;
}

export function ProjectSummary({
  project,
  onComplete,
  editPath,
  isCompleting,
  completeError,
}: ProjectSummaryProps) {
  return (
    <section className="project-summary" aria-labelledby="project-name">
      <div className="project-summary-card">
        <PageTitle id="project-name" className="project-name">
          {project.name}
        </PageTitle>
        <p className="project-due-date">
          {`Project due by ${formatCalendarDay(project.dueDate)}`}
          <DueStatus dueDate={project.dueDate} />
        </p>
        <p className="project-details-text">{project.details}</p>
        <p className="project-assigned-label">Project assigned to:</p>
        <AvatarList className="project-assignees" users={project.assignedUsersList} size={50} />
      </div>
      {(editPath ?? onComplete) && (
        <div className="project-actions">
          {editPath && (
            <Link className="btn project-edit" to={editPath}>
              Edit
            </Link>
          )}
          {onComplete && (
            <BusyButton className="btn project-complete" busy={isCompleting} onClick={onComplete}>
              Mark as Complete
            </BusyButton>
          )}
        </div>
      )}
      <ErrorAlert message={completeError} />
    </section>
  );
}

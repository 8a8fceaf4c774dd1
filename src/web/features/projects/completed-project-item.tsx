import { useId } from 'react';
import { formatCalendarDay, type CompletedProject } from '../../../common';
import { BusyButton } from '../../components/busy-button';
import { ConfirmInPlace, useInPlace } from '../../components/confirm-in-place';
import { absoluteTime, relativeTime } from '../../lib/time-format';
import { categoryLabel } from './project-form';

export type CompletedAction = 'reopen' | 'delete';

interface CompletedProjectItemProps {
  project: CompletedProject;
  /** The creator or an admin: may reopen it or delete it for good. */
  canManage: boolean;
  /** The action on its way for this project, if any. */
  pending: CompletedAction | null;
  /** Some action is on its way on the page: the buttons refuse meanwhile. */
  busy: boolean;
  onReopen: (project: CompletedProject) => void;
  /** Deletes it for good: on success it leaves the list; on failure the page says why, the question stays. */
  onDelete: (project: CompletedProject) => void;
}

/**
 * One completed project: what it was, who completed it and when, and, for its creator or an admin,
 * 'Reopen' and 'Delete permanently'. Deleting asks first, in place: focus moves to the question's safe
 * answer ('Cancel'), Escape cancels, and cancelling brings focus back to 'Delete permanently'.
 */
export function CompletedProjectItem({
  project,
  canManage,
  pending,
  busy,
  onReopen,
  onDelete,
}: CompletedProjectItemProps) {
  const id = useId();
  const nameId = `${id}-name`;
  const confirmation = useInPlace();
  const { trigger } = confirmation;

  return (
    <li className="completed-item">
      <article aria-labelledby={nameId}>
        {/* Focusable from script only: 'Show more' moves focus to the first added project. */}
        <h2 id={nameId} className="completed-name" tabIndex={-1}>
          {project.name}
        </h2>
        <p className="completed-meta">
          <span>{`Category: ${categoryLabel(project.category)}`}</span>
          <span>{`Due by ${formatCalendarDay(project.dueDate)}`}</span>
        </p>
        <p className="completed-when muted">
          {`Completed by ${project.completedBy.displayName} `}
          <time dateTime={project.completedAt} title={absoluteTime(project.completedAt)}>
            {relativeTime(project.completedAt)}
          </time>
        </p>
        {canManage && !confirmation.open && (
          <div className="completed-actions">
            <BusyButton
              className="btn"
              aria-describedby={nameId}
              busy={busy}
              onClick={() => onReopen(project)}
            >
              {pending === 'reopen' ? 'Reopening...' : 'Reopen'}
            </BusyButton>
            <BusyButton
              ref={trigger}
              className="btn btn-danger"
              aria-describedby={nameId}
              busy={busy}
              onClick={confirmation.show}
            >
              Delete permanently
            </BusyButton>
          </div>
        )}
        {canManage && confirmation.open && (
          <ConfirmInPlace
            kind="completed"
            confirmation={confirmation}
            question={`Delete "${project.name}" permanently?`}
            warning="The project and all its comments will be gone for good. This cannot be undone."
            busy={busy}
            action={pending === 'delete' ? 'Deleting...' : 'Yes, delete for good'}
            onConfirm={() => onDelete(project)}
          />
        )}
      </article>
    </li>
  );
}

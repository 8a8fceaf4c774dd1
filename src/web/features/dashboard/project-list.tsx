import { memo, type MouseEvent, type Ref } from 'react';
import { useNavigate } from 'react-router';
import { formatCalendarDay, localToday, projectPath, type Project } from '../../../common';
import { DueStatus } from '../../components/due-status';
import { AvatarList } from '../../components/avatar-list';

export interface ProjectListProps {
  projects: readonly Project[];
  ref?: Ref<HTMLUListElement>;
}

/** A plain left click, the only one the app handles itself; the others open tabs or windows as usual. */
const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * The dashboard's project cards, each a link to the project's page.
 *
 * The cards are plain anchors and the list routes their clicks itself: a router `Link` per card runs several
 * hooks of its own for every card, the largest part of laying out the first page. Memoized, so a filter
 * press re-renders its button at once while the list still shows the projects it has (see DashboardPage).
 */
export const ProjectList = memo(function ProjectList({ projects, ref }: ProjectListProps) {
  const navigate = useNavigate();
  const today = localToday();
  const followCard = (event: MouseEvent<HTMLUListElement>) => {
    const card = (event.target as Element).closest<HTMLAnchorElement>('a.project-card');
    if (!card || event.defaultPrevented || !isPlainClick(event)) return;
    event.preventDefault();
    void navigate(card.pathname);
  };
  return (
    <ul className="project-list" ref={ref} onClick={followCard}>
      {projects.map((project) => (
        <li key={project.id}>
          <a className="project-card" href={projectPath(project.id)}>
            <h2 className="project-card-name">{project.name}</h2>
            <p className="project-card-due">
              {`Due by ${formatCalendarDay(project.dueDate)}`}
              <DueStatus dueDate={project.dueDate} today={today} />
            </p>
            <div className="project-card-assigned">
              <p className="project-card-assigned-label">Assigned to:</p>
              <AvatarList users={project.assignedUsersList} size={32} />
            </div>
          </a>
        </li>
      ))}
    </ul>
  );
});

import type { Ref } from 'react';
import { Link } from 'react-router';
import { formatCalendarDay, localToday, projectPath, type Project } from '../../../common';
import { DueStatus } from '../../components/due-status';
import { AvatarList } from '../../components/avatar-list';

export interface ProjectListProps {
  projects: readonly Project[];
  ref?: Ref<HTMLUListElement>;
}

/** The dashboard's project cards, each a link to the project's page. */
export function ProjectList({ projects, ref }: ProjectListProps) {
  const today = localToday();
  return (
    <ul className="project-list" ref={ref}>
      {projects.map((project) => (
        <li key={project.id}>
          <Link className="project-card" to={projectPath(project.id)}>
            <h2 className="project-card-name">{project.name}</h2>
            <p className="project-card-due">
              {`Due by ${formatCalendarDay(project.dueDate)}`}
              <DueStatus dueDate={project.dueDate} today={today} />
            </p>
            <div className="project-card-assigned">
              <p className="project-card-assigned-label">Assigned to:</p>
              <AvatarList users={project.assignedUsersList} size={32} />
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}

import { memo, type DragEvent } from 'react';
import { projectPath } from '../../../common';
import { dayName, type CalendarProject } from '../../../common/calendar';
import { AvatarList } from '../../components/avatar-list';

/** Projects a month's day shows before '+N more'; a week's day has the room for more. */
export const SHOWN_IN_MONTH = 3;
export const SHOWN_IN_WEEK = 12;

export interface DayCellProps {
  day: string;
  projects: readonly CalendarProject[];
  /** The completed projects due that day, when 'Show completed' is on: shown after the open ones, apart. */
  completedProjects: readonly CalendarProject[];
  shown: number;
  today: string;
  outsideMonth: boolean;
  /** The grid's one tab stop. */
  active: boolean;
  /** The day a keyboard move would drop its project on. */
  dropTarget: boolean;
  /** Ids of the projects this viewer may move (creator or admin). */
  movable: (project: CalendarProject) => boolean;
  onOpenDay: (day: string) => void;
  onDropProject: (projectId: string, day: string) => void;
}

/**
 * The project being dragged on this page: drops come only from the calendar itself, and the id is kept here
 * rather than in the drag data, which a browser shows to other pages and lets other pages fill.
 */
let draggedProjectId: string | null = null;

/** What a day says: how many projects are due, whether they are overdue (all of a past day's open ones are), and the completed ones. */
const countText = (count: number, completed: number, overdue: boolean) =>
  (count === 0 ? 'no projects due' : count === 1 ? '1 project due' : `${count} projects due`) +
  (overdue && count > 0 ? (count === 1 ? ', overdue' : ', all overdue') : '') +
  (completed === 0 ? '' : `, ${completed} completed`);

/**
 * One day of the grid. Memoized: a live change re-renders only the days whose projects changed (the live
 * result keeps the objects of unchanged projects), which keeps a month of 1,000 projects quick.
 */
export const DayCell = memo(function DayCell({
  day,
  projects,
  completedProjects,
  shown,
  today,
  outsideMonth,
  active,
  dropTarget,
  movable,
  onOpenDay,
  onDropProject,
}: DayCellProps) {
  // The open projects come first; the completed ones take the room left.
  const shownCompleted = completedProjects.slice(0, Math.max(0, shown - projects.length));
  const hidden = projects.length + completedProjects.length - shown;
  const onDragOver = (event: DragEvent) => {
    if (draggedProjectId !== null) event.preventDefault();
  };
  const onDrop = (event: DragEvent) => {
    const id = draggedProjectId;
    draggedProjectId = null;
    if (id === null) return;
    event.preventDefault();
    onDropProject(id, day);
  };
  const classes = ['calendar-day'];
  if (outsideMonth) classes.push('calendar-day-outside');
  if (day === today) classes.push('calendar-day-today');
  if (projects.length === 0 && completedProjects.length === 0) classes.push('calendar-day-empty');
  if (dropTarget) classes.push('calendar-day-drop-target');
  if (active) classes.push('calendar-day-active');
  return (
    <div
      role="gridcell"
      className={classes.join(' ')}
      data-day={day}
      tabIndex={active ? 0 : -1}
      aria-label={`${dayName(day)}${day === today ? ' (today)' : ''}, ${countText(projects.length, completedProjects.length, day < today)}`}
      aria-selected={dropTarget ? true : undefined}
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <span className="calendar-day-number" aria-hidden="true">
        {Number(day.slice(8, 10))}
      </span>
      <span className="calendar-day-label" aria-hidden="true">
        {dayName(day)}
      </span>
      {projects.length > 0 && (
        <ul className="calendar-day-projects">
          {projects.slice(0, shown).map((project) => {
            const overdue = project.dueDate < today;
            const canMove = movable(project);
            return (
              <li
                key={project.id}
                className={`calendar-project calendar-category-${project.category}${overdue ? ' calendar-project-overdue' : ''}`}
                data-project-id={project.id}
                draggable={canMove}
                onDragStart={
                  canMove
                    ? (event) => {
                        draggedProjectId = project.id;
                        event.dataTransfer.setData('text/plain', project.name);
                        event.dataTransfer.effectAllowed = 'move';
                      }
                    : undefined
                }
                onDragEnd={() => (draggedProjectId = null)}
              >
                <a href={projectPath(project.id)} tabIndex={-1} className="calendar-project-name">
                  {overdue && (
                    <>
                      {/* A narrow cell has no room for the word: a compact mark is seen, the word heard. */}
                      <span className="calendar-overdue-mark" aria-hidden="true">
                        !
                      </span>
                      <span className="visually-hidden">Overdue: </span>
                    </>
                  )}
                  {project.name}
                </a>
                <span className="visually-hidden">{`, ${project.category}`}</span>
                <AvatarList users={project.assignees} size={20} className="calendar-avatars" />
              </li>
            );
          })}
        </ul>
      )}
      {shownCompleted.length > 0 && (
        <ul className="calendar-day-projects">
          {shownCompleted.map((project) => (
            // Never draggable: a completed project is not edited (decision 071); reopening it is.
            <li
              key={project.id}
              className={`calendar-project calendar-project-completed calendar-category-${project.category}`}
              data-project-id={project.id}
            >
              <a href={projectPath(project.id)} tabIndex={-1} className="calendar-project-name">
                <span className="visually-hidden">Completed: </span>
                {project.name}
              </a>
              <span className="visually-hidden">{`, ${project.category}`}</span>
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <button type="button" tabIndex={-1} className="calendar-more" onClick={() => onOpenDay(day)}>
          {`+${hidden} more`}
        </button>
      )}
    </div>
  );
});

import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { Link, useSearchParams } from 'react-router';
import { CLIENT_ROUTES, localToday, messages, projectPath } from '../../../common';
import {
  addDays,
  calendarMessages,
  calendarQuery,
  CALENDAR_PROJECT_LIMIT,
  dayName,
  type CalendarProject,
  monthName,
  weekStart,
  WEEKDAY_NAMES,
} from '../../../common/calendar';
import { DojoError } from '../../../sdk';
import { PageTitle } from '../../components/page-title';
import { useAnnouncer } from '../../hooks/use-announcer';
import { useAuthContext } from '../../hooks/use-auth-context';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { dojo } from '../../lib/dojo-client';
import { FilterBar } from '../../components/filter-bar';
import { rangeOfView, searchOfView, stepView, viewFromSearch, type CalendarView } from './calendar-view';
import { DayCell, SHOWN_IN_MONTH, SHOWN_IN_WEEK } from './day-cell';
import { useCalendarQuery } from './use-calendar-query';
import './calendar.css';

export { preloadCalendar } from './use-calendar-query';

/** A move sent and not yet seen live: the project shows on its new day until a newer version arrives. */
interface PendingMove {
  day: string;
  version: number;
}

/** 'Show completed' is this browser's choice, like the users panel's: kept in localStorage, off at first. */
const SHOW_COMPLETED_KEY = 'dojo.calendarShowCompleted';

const readShowCompleted = (): boolean => {
  try {
    return localStorage.getItem(SHOW_COMPLETED_KEY) === '1';
  } catch {
    return false;
  }
};

/** Projects bucketed by due day, in one pass. */
function bucketByDay(projects: readonly CalendarProject[] | null): Map<string, CalendarProject[]> {
  const map = new Map<string, CalendarProject[]>();
  for (const project of projects ?? []) {
    const list = map.get(project.dueDate);
    if (list) list.push(project);
    else map.set(project.dueDate, [project]);
  }
  return map;
}

const daysOf = (from: string, to: string): string[] => {
  const days: string[] = [];
  for (let day = from; day < to; day = addDays(day, 1)) days.push(day);
  return days;
};

/**
 * The team's projects by due day (docs/product-spec.md, the calendar; docs/decisions/067-live-calendar.md):
 * a live month or week grid after the WAI-ARIA grid pattern, where a project is moved to another day by
 * dragging it or from the day's list with the keyboard, through the project edit and its stale-edit check.
 */
export function CalendarPage() {
  useDocumentTitle('Calendar');
  const { user } = useAuthContext();
  const { say } = useAnnouncer();
  const today = localToday();
  const [search, setSearch] = useSearchParams();
  const addressView = viewFromSearch(search, today);
  /**
   * The day last asked for (a key, a click, a step), until the address has it. React Router renders an
   * address change as a transition of the whole app, which a month of 1,000 projects makes slow: the grid's
   * tab stop follows this at once instead (a key press is an urgent update, drawn before the next key is
   * read), and a second key steps from the day the first chose, whatever the machine's load.
   */
  const [askedDay, setAskedDay] = useState<string | null>(null);
  // Once the address has the day it is the one to follow again (a link or Back may change it later).
  if (askedDay !== null && askedDay === addressView.day) setAskedDay(null);
  const view: CalendarView = askedDay === null ? addressView : { ...addressView, day: askedDay };
  const { from, to } = rangeOfView(view);
  const uid = user?.uid ?? '';
  const { docs, error, isPending } = useCalendarQuery(uid ? calendarQuery(view.filter, uid, from, to) : null);
  const [showCompleted, setShowCompleted] = useState(readShowCompleted);
  const completed = useCalendarQuery(
    uid && showCompleted ? calendarQuery(view.filter, uid, from, to, { completed: true }) : null,
  );
  const [pending, setPending] = useState<ReadonlyMap<string, PendingMove>>(new Map());
  const [moveError, setMoveError] = useState<string | null>(null);
  /** The project a keyboard move carries, while one is under way. */
  const [moving, setMoving] = useState<CalendarProject | null>(null);
  const [openDay, setOpenDay] = useState<string | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const panelHeadingRef = useRef<HTMLHeadingElement>(null);
  /** Set when the keyboard moved the active day: focus follows it once the day is drawn. */
  const focusDayRef = useRef(false);

  const setView = useCallback(
    (next: CalendarView) => {
      setAskedDay(next.day);
      setSearch(new URLSearchParams(searchOfView(next)), { replace: true });
    },
    [setSearch, setAskedDay],
  );

  const shownProjects = useMemo(() => {
    if (!docs) return null;
    if (pending.size === 0) return docs;
    return docs.map((doc) => {
      const move = pending.get(doc.id);
      return move && doc.version <= move.version ? { ...doc, dueDate: move.day } : doc;
    });
  }, [docs, pending]);

  const byDay = useMemo(() => bucketByDay(shownProjects), [shownProjects]);
  const completedByDay = useMemo(
    () => (showCompleted ? bucketByDay(completed.docs) : new Map<string, CalendarProject[]>()),
    [showCompleted, completed.docs],
  );

  const toggleShowCompleted = (on: boolean) => {
    setShowCompleted(on);
    try {
      if (on) localStorage.setItem(SHOW_COMPLETED_KEY, '1');
      else localStorage.removeItem(SHOW_COMPLETED_KEY);
    } catch {
      // A browser that keeps nothing still shows them for this visit.
    }
  };

  const movable = useCallback(
    (project: CalendarProject) =>
      user !== null && (project.createdById === user.uid || user.role === 'admin'),
    [user],
  );

  const findProject = useCallback(
    (id: string) => shownProjects?.find((project) => project.id === id) ?? null,
    [shownProjects],
  );

  const moveProject = useCallback(
    async (project: CalendarProject, day: string) => {
      if (day === project.dueDate) return;
      setMoveError(null);
      setPending((current) => new Map(current).set(project.id, { day, version: project.version }));
      try {
        // The calendar holds only its slim shape: the edit takes the other fields from the whole project,
        // and the version the member saw, so that a change made meanwhile is still a conflict.
        const whole = await dojo.projects.get(project.id);
        await dojo.projects.update(project.id, {
          name: whole.name,
          details: whole.details,
          dueDate: day,
          category: whole.category,
          assignedUserIds: whole.assignedUserIds,
          version: project.version,
        });
        say(`${project.name} moved to ${dayName(day)}.`);
      } catch (failure) {
        // The project snaps back to where the live result has it: the server's day.
        setPending((current) => {
          const next = new Map(current);
          next.delete(project.id);
          return next;
        });
        const text =
          failure instanceof DojoError && failure.code === 'conflict'
            ? calendarMessages.moveConflict
            : calendarMessages.moveFailed;
        setMoveError(text);
        say(text);
      }
    },
    [say],
  );

  const onDropProject = useCallback(
    (id: string, day: string) => {
      const project = findProject(id);
      if (project && movable(project)) void moveProject(project, day);
    },
    [findProject, movable, moveProject],
  );

  const onOpenDay = useCallback((day: string) => setOpenDay(day), []);

  useEffect(() => {
    if (!focusDayRef.current) return;
    // Kept until the address has the day: its navigation moves focus to the page title (PageTitle), and
    // this effect, the parent's, runs after that one and takes it back to the day.
    if (askedDay === null) focusDayRef.current = false;
    gridRef.current?.querySelector<HTMLElement>(`[data-day="${view.day}"]`)?.focus();
  });

  useEffect(() => {
    if (openDay) panelHeadingRef.current?.focus();
  }, [openDay]);

  const goTo = (day: string) => {
    // The day is drawn and focused before the key's handler returns; the address follows as a transition.
    focusDayRef.current = true;
    flushSync(() => setAskedDay(day));
    gridRef.current?.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus();
    setView({ ...view, day });
    if (moving) say(`${dayName(day)}. Enter drops ${moving.name} here, Escape cancels.`);
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!(event.target as HTMLElement).matches('[role="gridcell"]')) return;
    const day = view.day;
    const steps: Record<string, () => string> = {
      ArrowLeft: () => addDays(day, -1),
      ArrowRight: () => addDays(day, 1),
      ArrowUp: () => addDays(day, -7),
      ArrowDown: () => addDays(day, 7),
      Home: () => weekStart(day),
      End: () => addDays(weekStart(day), 6),
      PageUp: () => stepView({ ...view, mode: 'month', day }, -1).day,
      PageDown: () => stepView({ ...view, mode: 'month', day }, 1).day,
    };
    const step = steps[event.key];
    if (step) {
      event.preventDefault();
      goTo(step());
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (moving) {
        const project = moving;
        setMoving(null);
        void moveProject(project, day);
      } else {
        setOpenDay(day);
      }
    } else if (event.key === 'Escape' && moving) {
      event.preventDefault();
      say(`Move of ${moving.name} cancelled.`);
      setMoving(null);
    }
  };

  /** Closes the day's list (its button had focus) and gives focus back to the day in the grid. */
  const focusDayAfter = (update: () => void, day: string) => {
    flushSync(update);
    if (day === view.day) gridRef.current?.querySelector<HTMLElement>(`[data-day="${day}"]`)?.focus();
    else {
      focusDayRef.current = true;
      setView({ ...view, day });
    }
  };

  const startMove = (project: CalendarProject) => {
    focusDayAfter(() => {
      setMoving(project);
      setOpenDay(null);
    }, project.dueDate);
    say(
      `Moving ${project.name}, due ${dayName(project.dueDate)}. Arrow keys choose a day, Enter drops it there, Escape cancels.`,
    );
  };

  const weeks = useMemo(() => {
    const days = daysOf(from, to);
    const rows: string[][] = [];
    for (let index = 0; index < days.length; index += 7) rows.push(days.slice(index, index + 7));
    return rows;
  }, [from, to]);
  const shown = view.mode === 'week' ? SHOWN_IN_WEEK : SHOWN_IN_MONTH;
  const viewMonth = view.day.slice(0, 7);
  const heading = view.mode === 'month' ? monthName(view.day) : `Week of ${dayName(weekStart(view.day))}`;
  const openProjects = openDay ? (byDay.get(openDay) ?? []) : [];
  const openCompleted = openDay ? (completedByDay.get(openDay) ?? []) : [];
  const busy = isPending || (showCompleted && completed.isPending);

  return (
    <div className="calendar">
      <PageTitle>Calendar</PageTitle>
      <div className="calendar-toolbar">
        <div className="calendar-steps" role="group" aria-label="Change the dates shown">
          <button type="button" className="btn" onClick={() => setView(stepView(view, -1))}>
            {view.mode === 'month' ? 'Previous month' : 'Previous week'}
          </button>
          <button type="button" className="btn" onClick={() => setView({ ...view, day: today })}>
            Today
          </button>
          <button type="button" className="btn" onClick={() => setView(stepView(view, 1))}>
            {view.mode === 'month' ? 'Next month' : 'Next week'}
          </button>
        </div>
        <div className="calendar-modes" role="group" aria-label="View">
          {(['month', 'week'] as const).map((mode) => (
            <button
              key={mode}
              type="button"
              className={view.mode === mode ? 'filter-button active' : 'filter-button'}
              aria-pressed={view.mode === mode}
              onClick={() => setView({ ...view, mode })}
            >
              {mode === 'month' ? 'Month' : 'Week'}
            </button>
          ))}
        </div>
      </div>
      <FilterBar current={view.filter} onChange={(filter) => setView({ ...view, filter })} />
      <label className="calendar-switch">
        <input
          type="checkbox"
          role="switch"
          checked={showCompleted}
          onChange={(event) => toggleShowCompleted(event.target.checked)}
        />
        Show completed
      </label>
      <h2 id="calendar-heading" className="calendar-heading" aria-live="polite">
        {heading}
      </h2>
      <p id="calendar-help" className="calendar-help">
        Arrow keys move between days, Page Up and Page Down between months; Enter lists a day’s projects,
        where Move carries one to another day. Show completed adds the completed projects of these dates,
        struck through; all of them are under <Link to={CLIENT_ROUTES.completed}>Completed</Link>.
      </p>
      {moveError && (
        <p className="error" role="alert">
          {moveError}
        </p>
      )}
      {(error || (showCompleted && completed.error)) && (
        <p className="error" role="alert">
          {messages.fetchFailed}
        </p>
      )}
      {busy && <p className="loading">{messages.loading}</p>}
      {docs && docs.length >= CALENDAR_PROJECT_LIMIT && (
        <p className="calendar-note">
          {`Only the first ${CALENDAR_PROJECT_LIMIT} projects of these dates are shown: pick a filter or the week view to see the rest.`}
        </p>
      )}
      <div
        ref={gridRef}
        role="grid"
        className={`calendar-grid calendar-grid-${view.mode}`}
        aria-labelledby="calendar-heading"
        aria-describedby="calendar-help"
        aria-busy={busy}
        onKeyDown={onGridKeyDown}
        onClick={(event) => {
          const cell = (event.target as Element).closest<HTMLElement>('[data-day]');
          const day = cell?.dataset.day;
          if (!day) return;
          // A click makes the day the grid's tab stop and focuses it, as the arrow keys do.
          focusDayRef.current = true;
          if (day !== view.day) setView({ ...view, day });
          else cell?.focus();
        }}
      >
        <div role="row" className="calendar-row calendar-weekdays">
          {WEEKDAY_NAMES.map((name) => (
            <div role="columnheader" key={name} className="calendar-weekday">
              <abbr title={name}>{name.slice(0, 3)}</abbr>
            </div>
          ))}
        </div>
        {weeks.map((week) => (
          <div
            role="row"
            key={week[0]}
            className={
              // On a narrow screen a week without projects, today or the active day is left out whole.
              week.some(
                (day) => byDay.has(day) || completedByDay.has(day) || day === today || day === view.day,
              )
                ? 'calendar-row'
                : 'calendar-row calendar-row-empty'
            }
          >
            {week.map((day) => (
              <DayCell
                key={day}
                day={day}
                projects={byDay.get(day) ?? NO_PROJECTS}
                completedProjects={completedByDay.get(day) ?? NO_PROJECTS}
                shown={shown}
                today={today}
                outsideMonth={view.mode === 'month' && day.slice(0, 7) !== viewMonth}
                active={day === view.day}
                dropTarget={moving !== null && day === view.day}
                movable={movable}
                onOpenDay={onOpenDay}
                onDropProject={onDropProject}
              />
            ))}
          </div>
        ))}
      </div>
      {openDay && (
        <section className="calendar-day-panel" aria-labelledby="calendar-day-panel-heading">
          <h2 id="calendar-day-panel-heading" ref={panelHeadingRef} tabIndex={-1}>
            {`Due ${dayName(openDay)}`}
          </h2>
          {openProjects.length === 0 && openCompleted.length === 0 ? (
            <p>{messages.noProjects}</p>
          ) : (
            <ul className="calendar-day-panel-list">
              {openProjects.map((project) => (
                <li key={project.id} className={`calendar-project calendar-category-${project.category}`}>
                  <Link to={projectPath(project.id)}>{project.name}</Link>
                  <span className="calendar-day-panel-category">{project.category}</span>
                  {project.dueDate < today && <span className="calendar-overdue-mark">Overdue</span>}
                  {movable(project) && (
                    <button
                      type="button"
                      className="btn"
                      aria-label={`Move ${project.name}`}
                      onClick={() => startMove(project)}
                    >
                      Move
                    </button>
                  )}
                </li>
              ))}
              {openCompleted.map((project) => (
                <li
                  key={project.id}
                  className={`calendar-project calendar-project-completed calendar-category-${project.category}`}
                >
                  <Link to={projectPath(project.id)} className="calendar-project-name">
                    <span className="visually-hidden">Completed: </span>
                    {project.name}
                  </Link>
                  <span className="calendar-day-panel-category">{`${project.category}, completed`}</span>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            className="btn"
            onClick={() => focusDayAfter(() => setOpenDay(null), view.day)}
          >
            Close
          </button>
        </section>
      )}
    </div>
  );
}

const NO_PROJECTS: readonly CalendarProject[] = [];

import type { Project } from '../../common';
import { projectPath } from '../../common/client-routes';
import { contentLine, dateTimeValue, dateValue, escapeText, nextDateValue } from './icalendar';

/** What every event of one feed shares: where the site is and whose feed it is. */
export interface FeedContext {
  /** The site's origin (PUBLIC_URL, or the request's): project links and UIDs are made from it. */
  origin: string;
  /** X-WR-CALNAME, the name a client gives the subscribed calendar. */
  calendarName: string;
}

/** The calendar's opening lines, up to the first event. */
export function calendarHeader(context: FeedContext): string {
  return [
    contentLine('BEGIN', 'VCALENDAR'),
    contentLine('VERSION', '2.0'),
    contentLine('PRODID', '-//The Dojo//Calendar feed//EN'),
    contentLine('CALSCALE', 'GREGORIAN'),
    contentLine('METHOD', 'PUBLISH'),
    contentLine('X-WR-CALNAME', escapeText(context.calendarName)),
  ].join('');
}

export const calendarFooter = (): string => contentLine('END', 'VCALENDAR');

/**
 * One open project as an all-day event on its due day. The UID is the project's id at the site's host, so
 * it is the same in every answer and a client updates the event rather than adding another; SEQUENCE is the
 * project's version, raised by every edit. Assignees are named in the description, as members see them,
 * never with their email (docs/decisions/068-private-calendar-feed.md).
 */
export function projectEvent(project: Project, context: FeedContext): string {
  const link = new URL(projectPath(project.id), context.origin).href;
  const assignees = project.assignedUsersList.map((user) => user.displayName).join(', ');
  const description = [
    project.details,
    '',
    `Assigned to: ${assignees}`,
    `Created by: ${project.createdBy.displayName}`,
    link,
  ].join('\n');
  return [
    contentLine('BEGIN', 'VEVENT'),
    contentLine('UID', `${project.id}@${new URL(context.origin).host}`),
    contentLine('DTSTAMP', dateTimeValue(project.updatedAt)),
    contentLine('CREATED', dateTimeValue(project.createdAt)),
    contentLine('LAST-MODIFIED', dateTimeValue(project.updatedAt)),
    contentLine('SEQUENCE', String(Math.max(0, project.version - 1))),
    contentLine('DTSTART', dateValue(project.dueDate), { VALUE: 'DATE' }),
    contentLine('DTEND', nextDateValue(project.dueDate), { VALUE: 'DATE' }),
    contentLine('SUMMARY', escapeText(project.name)),
    contentLine('DESCRIPTION', escapeText(description)),
    contentLine('URL', link),
    contentLine('CATEGORIES', escapeText(project.category)),
    contentLine('TRANSP', 'TRANSPARENT'),
    contentLine('END', 'VEVENT'),
  ].join('');
}

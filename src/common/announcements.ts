import { appMessages } from './app-messages';

const plural = (count: number, one: string, many: string): string =>
  count === 1 ? `1 ${one}` : `${count} ${many}`;

/** Names in a sentence: 'Ana', 'Ana and Bo', 'Ana, Bo and Cy'. */
const nameList = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;

/** More names than this in one announcement are counted instead of read out. */
const NAMES_READ_OUT = 3;

/**
 * What the app's live region says (docs/decisions/019-announcements.md): confirmations of the user's own
 * actions, the result of a filter, and changes other people made, batched into one sentence each.
 */
export const announcements = {
  projectCreated: 'Project created.',
  projectCompleted: 'Project marked as complete. Find it under Completed.',
  commentAdded: 'Comment added.',
  /** The dashboard after a filter was chosen, e.g. 'mine: 4 projects' or 'mine: No projects yet!'. */
  filterResult: (filter: string, count: number, more: boolean): string =>
    `${filter}: ${count === 0 ? appMessages.noProjects : `${plural(count, 'project', 'projects')}${more ? ' shown, more below' : ''}`}`,
  projectsAdded: (count: number): string => plural(count, 'new project', 'new projects'),
  projectsRemoved: (count: number): string =>
    count === 1 ? '1 project removed' : `${count} projects removed`,
  commentsAdded: (count: number): string => plural(count, 'new comment', 'new comments'),
  cameOnline: (names: readonly string[]): string =>
    names.length > NAMES_READ_OUT
      ? `${names.length} teammates came online`
      : `${nameList(names)} ${names.length === 1 ? 'is' : 'are'} online`,
  wentOffline: (names: readonly string[]): string =>
    names.length > NAMES_READ_OUT
      ? `${names.length} teammates went offline`
      : `${nameList(names)} ${names.length === 1 ? 'is' : 'are'} offline`,
  settingLabel: 'Announce live changes to screen readers',
  settingHint:
    'New and removed projects, new comments on the open project, and teammates coming online or going offline are read out politely, a few seconds apart.',
} as const;

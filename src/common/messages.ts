/** Every user-facing string of the spec lives here once; UI and server import it. */
export const messages = {
  fetchFailed: 'could not fetch the data',
  loadingUsers: 'Loading users...',
  loading: 'Loading...',
  noSuchDocument: 'No such document exists',
  documentFailed: 'failed to get document',
  deleteFailed: 'could not delete',
  noProjects: 'No projects yet!',
  signupIncomplete: 'Could not complete signup',

  thumbnailRequired: 'Please select a file',
  thumbnailNotImage: 'Selected file must be an image',
  thumbnailTooLarge: 'Image file size must be less than 100kb',

  categoryRequired: 'Please select a project category.',
  assigneesRequired: 'Please assign the project to at least 1 user',

  projectNameRequired: 'Please enter a project name.',
  projectNameTooLong: 'Project name should be at most 200 characters.',
  projectDetailsRequired: 'Please enter the project details.',
  projectDetailsTooLong: 'Project details should be at most 10000 characters.',
  dueDateRequired: 'Please set a due date.',
  dueDateInvalid: 'Please enter a valid due date.',
  unknownAssignee: 'One of the assigned users does not exist.',
  tooManyAssignees: 'A project can be assigned to at most 50 users.',
  commentRequired: 'Please write a comment first.',
  commentTooLong: 'A comment can be at most 10000 characters.',
  onlyCreatorCompletes: 'Only the creator of a project can mark it as complete.',
  onlyCreatorEdits: 'Only the creator of a project or an admin can edit it.',
  onlyCreatorReopens: 'Only the creator of a project or an admin can reopen it.',
  onlyCreatorDeletes: 'Only the creator of a project or an admin can delete it for good.',
  projectChanged:
    'Someone else changed this project while you were editing. The form now shows the newer version: check it and save again.',
  projectCursorInvalid: 'That page of projects does not exist.',
  completedProjectNotFound: 'No such completed project.',
  projectsSortInvalid: 'Projects can be sorted by newest or by due date.',
  onlyAuthorEditsComment: 'Only the author of a comment can edit it.',
  onlyAuthorDeletesComment: 'Only the author of a comment can delete it.',
  commentNotFound: 'No such comment exists',
  commentEdited: 'edited',
  editComment: 'Edit',
  deleteComment: 'Delete',
  confirmDeleteComment: 'Confirm delete',
  saveComment: 'Save',
  cancelEdit: 'Cancel',
  editCommentLabel: 'Edit comment:',
  projectNotFound: 'No such document exists',

  emailRequired: 'Please enter your email address.',
  emailInvalid: 'The email address is badly formatted.',
  passwordRequired: 'Please enter your password.',
  passwordWeak: 'Password should be at least 8 characters.',
  passwordTooLong: 'Password should be at most 256 characters.',
  displayNameRequired: 'Please enter a display name.',
  displayNameTooLong: 'Display name should be at most 60 characters.',
  displayNameInvisible: 'Display name cannot contain control, invisible or text-direction characters.',
  displayNameTaken: 'Another member already goes by this name. Please choose a different display name.',

  emailInUse: 'The email address is already in use by another account.',
  wrongCredentials: 'Wrong email or password.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  tooManyWrites: 'You are doing that too often. Please wait a minute and try again.',
  tooManyLiveConnections: 'Too many open tabs for this account. Close some tabs and try again.',
  tooManySubscriptions: 'Too many live subscriptions on one connection.',
  searchQueryRequired: 'Please type something to search for.',
  searchQueryTooLong: 'A search can be at most 200 characters.',
  searchLabel: 'Search projects',
  searchNoResults: 'No results',
  searching: 'Searching...',
  commentCursorInvalid: 'That page of comments does not exist.',
  membersCursorInvalid: 'That page of members does not exist.',
  notificationCursorInvalid: 'That page of notifications does not exist.',
  notificationNotFound: 'No such notification exists',
  notificationsOnlyYours: 'You can only follow your own notifications.',
  showOlderComments: 'Show older comments',
  loadingOlderComments: 'Loading older comments...',
  tooManyLoginFailures:
    'Too many failed logins for this account. Please wait up to 15 minutes and try again.',
  idTokenCannotMint:
    'A new id token needs the session cookie: an id token cannot renew itself. Please log in again.',
  notSignedIn: 'You are not signed in. Please log in and try again.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  badRequest: 'The request is not valid.',
  crossOrigin: 'Cross-origin request refused.',
  payloadTooLarge: 'The request is too large.',
  requestTimeout: 'The request took too long to arrive. Please try again.',
  headersTooLarge: 'The request headers are too large.',
  liveUpgradeRequired: 'This address is a WebSocket: open it with a WebSocket client.',
  internal: 'Something went wrong on our side. Please try again.',
  network: 'Could not reach the server. Check your connection and try again.',
  reconnecting: 'Reconnecting…',
  databaseUnavailable: 'The database is unavailable for a moment. Please try again shortly.',
  notReady: 'This server is not ready to take requests.',
  metricsTokenRequired: 'Metrics need the bearer token the server was started with.',
  diskFull: 'The server has run out of disk space, so nothing was saved. Please try again later.',

  signupPolicyModeInvalid: 'Choose who may sign up: open, invitation only, or these email domains.',
  signupDomainInvalid: 'Enter email domains like example.com, one per line.',
  signupDomainsRequired: 'Enter at least one email domain.',
  signupDomainsTooMany: 'At most 50 email domains.',
  signupInvitationOnly: 'Sign-up is by invitation only. Ask an admin of this team for an invitation link.',
  signupDomainRefused: "Sign-up is open only to addresses at the team's email domains.",
  invitationInvalid: 'This invitation link is not valid. Ask an admin for a new one.',
  invitationExpired: 'This invitation has expired. Ask an admin for a new one.',
  invitationUsed: 'This invitation has already been used. Ask an admin for a new one.',
  invitationRevoked: 'This invitation has been revoked. Ask an admin for a new one.',
  invitationOtherEmail: 'This invitation is for a different email address.',
  setupLinkInvalid: 'This setup link is not valid: it works once, and only until the team has an admin.',
  invitationUsesInvalid: 'Uses must be a whole number from 1 to 1000.',
  invitationDaysInvalid: 'Expiry must be a whole number of days from 1 to 90.',
  roleInvalid: 'A role is either admin or member.',
  lastAdmin: 'A team needs at least one admin: make someone else an admin first.',
  cannotDeactivateSelf: 'You cannot deactivate your own account.',
  memberNotFound: 'No such member.',
  accountDeactivated: 'This account has been deactivated. Ask an admin of this team to reactivate it.',
  currentPasswordWrong: 'The current password is wrong.',
  passwordWrong: 'The password is wrong.',
  sessionNotFound: 'That session has already ended.',
  resetLinkInvalid: 'This password reset link is not valid. Ask for a new one.',
  resetLinkExpired: 'This password reset link has expired. Ask for a new one.',
  resetLinkUsed: 'This password reset link has already been used. Ask for a new one.',
  resetEmailSent:
    'If an account uses that address, we have emailed it a link to set a new password. The link works for an hour.',
  resetByEmailOff: 'Password reset by email is not set up on this server. Ask an admin for a reset link.',
  unsubscribeLinkInvalid: 'This unsubscribe link is not valid.',
  tooManyResetEmails: 'Too many reset emails for this address. Please wait an hour and try again.',
} as const;

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
    `${filter}: ${count === 0 ? messages.noProjects : `${plural(count, 'project', 'projects')}${more ? ' shown, more below' : ''}`}`,
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

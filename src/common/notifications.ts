/**
 * What a member can be told about (issue: notifications). Shared by the server, which creates them, and the
 * web app, which lists them and lets each member choose per kind.
 */
export const NOTIFICATION_KINDS = [
  'assigned',
  'mentioned',
  'commented',
  'project_edited',
  'project_completed',
  'project_reopened',
  'due_tomorrow',
  'overdue',
  'attached',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How a kind reaches a member by email: never, one message each, or folded into one daily digest. */
export const NOTIFICATION_EMAIL_MODES = ['off', 'immediate', 'digest'] as const;

export type NotificationEmailMode = (typeof NOTIFICATION_EMAIL_MODES)[number];

export interface NotificationPreference {
  kind: NotificationKind;
  /** Shown in the bell and panel. */
  inApp: boolean;
  email: NotificationEmailMode;
}

/** Notifications in one page of the panel (and in its live first page). */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_MAX = 100;

/** A kind's choice when the member never chose: in the app, no email. */
export const defaultNotificationPreference = (kind: NotificationKind): NotificationPreference => ({
  kind,
  inApp: true,
  email: 'off',
});

/** The live newest page of a member's notifications (only their own may be followed). */
export const notificationsQuery = (userId: string, limit: number = NOTIFICATIONS_PAGE_SIZE) => ({
  kind: 'query' as const,
  collection: 'notifications' as const,
  where: [{ field: 'userId', op: '==' as const, value: userId }],
  limit,
});

/**
 * Where the unread count stops: the bell shows "99+" from here on, and counting a backlog of thousands of
 * unread notifications on every change would cost a read per change for nothing anyone sees.
 */
export const UNREAD_COUNT_CAP = 100;

/** The live unread count of a member: one doc `{ id: userId, count }`, `count` at most `UNREAD_COUNT_CAP`. */
export const unreadNotificationsCountQuery = (userId: string) => ({
  kind: 'query' as const,
  collection: 'notifications' as const,
  where: [
    { field: 'userId', op: '==' as const, value: userId },
    { field: 'unread', op: '==' as const, value: true },
  ],
});

/** One line saying what happened, e.g. "Ada mentioned you in Launch"; the web panel and emails use it. */
export function notificationText(notification: {
  kind: NotificationKind;
  projectName: string;
  actor: { displayName: string } | null;
}): string {
  const actor = notification.actor?.displayName || 'Someone';
  const project = notification.projectName;
  switch (notification.kind) {
    case 'assigned':
      return `${actor} assigned you to ${project}`;
    case 'mentioned':
      return `${actor} mentioned you in ${project}`;
    case 'commented':
      return `${actor} commented on ${project}`;
    case 'project_edited':
      return `${actor} edited ${project}`;
    case 'project_completed':
      return `${actor} completed ${project}`;
    case 'project_reopened':
      return `${actor} reopened ${project}`;
    case 'due_tomorrow':
      return `${project} is due tomorrow`;
    case 'overdue':
      return `${project} is overdue`;
    case 'attached':
      return `${actor} attached a file to ${project}`;
  }
}

/** Each kind as the preferences screen names it. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  assigned: 'You are assigned to a project',
  mentioned: 'You are @mentioned in a comment',
  commented: 'A comment on a project you created or are assigned to',
  project_edited: 'A project you are on is edited',
  project_completed: 'A project you are on is completed',
  project_reopened: 'A project you are on is reopened',
  due_tomorrow: 'A project you are on is due tomorrow',
  overdue: 'A project you are on is overdue',
  attached: 'A file is attached to a project you created or are assigned to',
};

export const NOTIFICATION_EMAIL_MODE_LABELS: Record<NotificationEmailMode, string> = {
  off: 'Off',
  immediate: 'At once',
  digest: 'Daily digest',
};

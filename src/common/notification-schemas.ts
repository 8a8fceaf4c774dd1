/** The notifications API's bodies as schemas (zod): the server parses with them and documents them. */
import { z } from 'zod/mini';
import { NOTIFICATION_EMAIL_MODES, NOTIFICATION_KINDS } from './notifications';
import { pageSchemaOf } from './page-schema';

const NotificationKindSchema = z.enum(NOTIFICATION_KINDS);

const NotificationSchema = z.object({
  id: z.string(),
  kind: NotificationKindSchema,
  projectId: z.string(),
  projectName: z.string(),
  /** For comments and mentions: the comment to land on. */
  commentId: z.nullable(z.string()),
  /** Who caused it (their current name); null for scheduled reminders. */
  actor: z.nullable(z.object({ id: z.string(), displayName: z.string() })),
  createdAt: z.string(),
  readAt: z.nullable(z.string()),
});
export type Notification = z.infer<typeof NotificationSchema>;

/** `nextCursor` goes as `cursor` for the next older page. */
export const NotificationPageSchema = pageSchemaOf('notifications', NotificationSchema);
export type NotificationPage = z.infer<typeof NotificationPageSchema>;

const NotificationPreferenceSchema = z.object({
  kind: NotificationKindSchema,
  inApp: z.boolean(),
  email: z.enum(NOTIFICATION_EMAIL_MODES),
});

export const NotificationPreferencesSchema = z.object({
  /** One per kind, in NOTIFICATION_KINDS order. */
  preferences: z.array(NotificationPreferenceSchema),
  /** Whether the server can send email (SMTP_URL set); the email column is shown only then. */
  emailAvailable: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferencesSchema>;

/** A PUT names the kinds it changes; the others keep their choice. */
export const UpdateNotificationPreferencesSchema = z.object({
  preferences: z.array(NotificationPreferenceSchema).check(z.maxLength(NOTIFICATION_KINDS.length)),
});
export type UpdateNotificationPreferencesInput = z.infer<typeof UpdateNotificationPreferencesSchema>;

/**
 * The live unread count of a member: the one doc of the query `notifications` where userId == them,
 * unread == true. `count` stops at `UNREAD_COUNT_CAP` (that many or more).
 */
export type NotificationUnreadCount = { id: string; userId: string; unread: true; count: number };

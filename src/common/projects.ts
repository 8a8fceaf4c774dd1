import { z } from 'zod/mini';
import { COMMENT_MAX_LENGTH, PROJECT_DETAILS_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from './limits';
import { messages } from './messages';

/** Spec §9: project categories, in the order the create form lists them. */
export const PROJECT_CATEGORIES = ['development', 'design', 'sales', 'marketing'] as const;
export type ProjectCategory = (typeof PROJECT_CATEGORIES)[number];

/** Spec §9: dashboard filters, in the order the filter bar shows them. */
export const DASHBOARD_FILTERS = ['all', 'mine', 'development', 'design', 'marketing', 'sales'] as const;
export type DashboardFilter = (typeof DASHBOARD_FILTERS)[number];

export const MAX_ASSIGNEES = 50;

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const match = CALENDAR_DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * A due date is a calendar day, not an instant (ORIGINAL-FLAWS #5): it is stored as YYYY-MM-DD and shown
 * as that same day in every time zone. This builds the spec's 'Sat Dec 12 2026' style string.
 */
export function formatCalendarDay(value: string): string {
  const match = CALENDAR_DAY.exec(value);
  if (!match) return value;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toDateString();
}

export const CreateProjectSchema = z.object({
  name: z
    .string({ error: messages.projectNameRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.projectNameRequired),
      z.maxLength(PROJECT_NAME_MAX_LENGTH, messages.projectNameTooLong),
    ),
  details: z
    .string({ error: messages.projectDetailsRequired })
    .check(
      z.trim(),
      z.minLength(1, messages.projectDetailsRequired),
      z.maxLength(PROJECT_DETAILS_MAX_LENGTH, messages.projectDetailsTooLong),
    ),
  dueDate: z
    .string({ error: messages.dueDateRequired })
    .check(z.minLength(1, messages.dueDateRequired), z.refine(isCalendarDay, messages.dueDateInvalid)),
  category: z.enum(PROJECT_CATEGORIES, { error: messages.categoryRequired }),
  assignedUserIds: z.pipe(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(64)), { error: messages.assigneesRequired })
      .check(
        z.minLength(1, messages.assigneesRequired),
        z.maxLength(MAX_ASSIGNEES, messages.tooManyAssignees),
      ),
    z.transform((ids: string[]) => [...new Set(ids)]),
  ),
});
export type CreateProjectInput = z.input<typeof CreateProjectSchema>;

export const AddCommentSchema = z.object({
  content: z.string({ error: messages.commentRequired }).check(
    z.refine((content) => content.trim().length > 0, messages.commentRequired),
    z.refine((content) => content.length <= COMMENT_MAX_LENGTH, messages.commentTooLong),
  ),
});
export type AddCommentInput = z.infer<typeof AddCommentSchema>;

export const UserRefSchema = z.object({ id: z.string(), displayName: z.string(), photoURL: z.string() });
export type UserRef = z.infer<typeof UserRefSchema>;

export const CommentSchema = z.object({
  id: z.string(),
  authorId: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  content: z.string(),
  createdAt: z.string(),
});
export type Comment = z.infer<typeof CommentSchema>;

/** A project as the spec shapes it (§3). `comments` is present on single-project reads only: lists stay light. */
export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  details: z.string(),
  /** Calendar day, YYYY-MM-DD. */
  dueDate: z.string(),
  category: z.enum(PROJECT_CATEGORIES),
  assignedUsersList: z.array(UserRefSchema),
  /** Ids of assigned users, for the 'mine' filter (`array-contains`). */
  assignedUserIds: z.array(z.string()),
  createdBy: UserRefSchema,
  createdAt: z.string(),
  comments: z.optional(z.array(CommentSchema)),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The live query behind each dashboard filter: filtering runs on the server (ORIGINAL-FLAWS #15). */
export function dashboardQuery(filter: DashboardFilter, uid: string, limit: number) {
  const where =
    filter === 'all'
      ? []
      : filter === 'mine'
        ? [{ field: 'assignedUserIds', op: 'array-contains' as const, value: uid }]
        : [{ field: 'category', op: '==' as const, value: filter }];
  return {
    kind: 'query' as const,
    collection: 'projects' as const,
    where,
    orderBy: { field: 'createdAt', direction: 'desc' as const },
    limit,
  };
}

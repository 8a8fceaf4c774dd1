/**
 * The projects' schemas, for the forms and the server. They are built when this module is imported, so
 * they sit apart from the rules in projects.ts: whatever imports this module loads zod.
 */
import { z } from 'zod/mini';
import { COMMENT_MAX_LENGTH, PROJECT_DETAILS_MAX_LENGTH, PROJECT_NAME_MAX_LENGTH } from './limits';
import { messages } from './messages';
import { pageSchemaOf } from './page-schema';
import { isCalendarDay, MAX_ASSIGNEES, PROJECT_CATEGORIES } from './projects';

/** Text that is trimmed, then required and at most `maxLength` characters long. */
const requiredText = (maxLength: number, { required, tooLong }: { required: string; tooLong: string }) =>
  z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.maxLength(maxLength, tooLong));

export const CreateProjectSchema = z.object({
  name: requiredText(PROJECT_NAME_MAX_LENGTH, {
    required: messages.projectNameRequired,
    tooLong: messages.projectNameTooLong,
  }),
  details: requiredText(PROJECT_DETAILS_MAX_LENGTH, {
    required: messages.projectDetailsRequired,
    tooLong: messages.projectDetailsTooLong,
  }),
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

const commentContent = () =>
  z.string({ error: messages.commentRequired }).check(
    z.refine((content) => content.trim().length > 0, messages.commentRequired),
    z.refine((content) => content.length <= COMMENT_MAX_LENGTH, messages.commentTooLong),
  );

export const AddCommentSchema = z.object({ content: commentContent() });
export type AddCommentInput = z.infer<typeof AddCommentSchema>;

/** Editing a comment follows the same rules (and messages) as adding one. */
export const EditCommentSchema = z.object({ content: commentContent() });
export type EditCommentInput = z.infer<typeof EditCommentSchema>;

const UserRefSchema = z.object({ id: z.string(), displayName: z.string(), photoURL: z.string() });
export type UserRef = z.infer<typeof UserRefSchema>;

export const CommentSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  authorId: z.string(),
  displayName: z.string(),
  photoURL: z.string(),
  content: z.string(),
  createdAt: z.string(),
  /** When the author last edited it (server clock); null if never edited. */
  editedAt: z.nullable(z.string()),
});
export type Comment = z.infer<typeof CommentSchema>;

/**
 * A project as docs/product-spec.md §3.1 shapes it. Its comments are not part of it: they are read a page at
 * a time (`GET /api/projects/{id}/comments`, the live `comments` query), so a new comment never re-sends the
 * rest.
 */
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
  /** Raised by every edit; an edit sends the version it started from (docs/decisions/021-project-paging.md). */
  version: z.number(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** An edit: the create form's fields and rules, and the version the editor started from. */
export const UpdateProjectSchema = z.extend(CreateProjectSchema, {
  version: z.int({ error: messages.badRequest }).check(z.minimum(1)),
});
export type UpdateProjectInput = z.input<typeof UpdateProjectSchema>;

/** A project 'Mark as Complete' took off the dashboards, with who completed it and when. */
export const CompletedProjectSchema = z.extend(ProjectSchema, {
  completedAt: z.string(),
  completedBy: UserRefSchema,
});
export type CompletedProject = z.infer<typeof CompletedProjectSchema>;

/** A page of a project list; `nextCursor` asks for the next one (null: this was the last). */
export const ProjectPageSchema = pageSchemaOf('projects', ProjectSchema);
export type ProjectPage = z.infer<typeof ProjectPageSchema>;

export const CompletedProjectPageSchema = pageSchemaOf('projects', CompletedProjectSchema);
export type CompletedProjectPage = z.infer<typeof CompletedProjectPageSchema>;

/** A page of a project's comments, newest first; `nextCursor` asks for the next older page (null: none). */
export const CommentPageSchema = pageSchemaOf('comments', CommentSchema);
export type CommentPage = z.infer<typeof CommentPageSchema>;

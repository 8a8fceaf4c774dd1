import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  COMMENT_MAX_LENGTH,
  DELETED_USER_NAME,
  DISPLAY_NAME_MAX_LENGTH,
  DisplayNameSchema,
  displayNameKey,
  EmailSchema,
  MAX_ASSIGNEES,
  PROJECT_CATEGORIES,
  PROJECT_DETAILS_MAX_LENGTH,
  PROJECT_NAME_MAX_LENGTH,
  isCalendarDay,
} from '../../common';
import { firebasePasswordHash, type FirebaseHashParameters } from '../auth/passwords';
import { nowIso } from '../core/time';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import { generatedAvatarPng } from '../single-sign-on/generated-avatar';
import type { ProfileThumbnails, StagedThumbnail } from '../users/profile-thumbnails';
import { isDisplayNameTaken } from '../users/users-repository';
import {
  FirebaseImportError,
  timestampToDate,
  type FirebaseAuthExport,
  type FirebaseAuthUser,
  type FirestoreComment,
  type FirestoreProject,
  type FirestoreTimestamp,
  type ProfilesCollection,
  type ProjectsCollection,
} from './firebase-export-formats';
import {
  existingProjectIds,
  insertImportedComments,
  insertImportedProject,
  type ImportedCommentRow,
  type ImportedProjectRow,
} from '../projects/imported-projects-repository';
import {
  accountsByEmailKey,
  existingUserIds,
  insertImportedUser,
  type ImportedUserRow,
} from './firebase-import-repository';
import { fetchStoragePicture } from './firebase-storage-pictures';

export interface FirebaseImportInput {
  authExport: FirebaseAuthExport;
  /** The Firebase project's password hash parameters (its console, Authentication, Users). */
  hash: FirebaseHashParameters;
  /** The `users` collection: display names and pictures as the app showed them. */
  profiles?: ProfilesCollection | undefined;
  projects?: ProjectsCollection | undefined;
  /** Only pictures at this origin are fetched (`FIREBASE_STORAGE_ORIGIN` unless the operator says). */
  storageOrigin: string;
}

/** Something left out, and why. */
interface Skipped {
  what: string;
  reason: string;
}

interface ImportTally {
  imported: number;
  skipped: Skipped[];
}

export interface FirebaseImportSummary {
  users: ImportTally;
  projects: ImportTally;
  comments: ImportTally;
  thumbnails: ImportTally;
  /** What was imported, but not quite as it was (a renamed member, an assignee left out). */
  notes: string[];
}

interface Deps {
  db: Kysely<Database>;
  writes: UnitOfWork;
  thumbnails: ProfileThumbnails;
}

interface PlannedUser {
  row: Omit<ImportedUserRow, 'photoURL'>;
  photoURL: string | undefined;
  label: string;
}

interface PlannedProject {
  row: ImportedProjectRow;
  comments: ImportedCommentRow[];
}

/** Pictures fetched at once: a bucket is not a place to open hundreds of connections to. */
const PICTURE_FETCHES_IN_FLIGHT = 4;
const MAX_NAME_SUFFIX = 50;

const tally = (): ImportTally => ({ imported: 0, skipped: [] });

/**
 * Moves the data of the original Firebase app in (docs/firebase-import.md,
 * docs/decisions/080-moving-in-from-firebase.md): its Auth accounts become members who sign in with their
 * old password, its `users` profiles give their names and pictures, its `projects` (comments inside)
 * become projects and comments. Firebase ids are kept as ours, so a second run finds what the first
 * imported and skips it. Everything is planned and every picture staged before one transaction writes all
 * of it: a failure leaves nothing behind.
 */
export class FirebaseImportService {
  constructor(private readonly deps: Deps) {}

  async run(input: FirebaseImportInput): Promise<FirebaseImportSummary> {
    const summary: FirebaseImportSummary = {
      users: tally(),
      projects: tally(),
      comments: tally(),
      thumbnails: tally(),
      notes: [],
    };
    refuseDuplicateIds(
      '--users',
      input.authExport.users.map((user) => user.localId),
      'users',
      'localId',
    );
    refuseDuplicateIds('--profiles', input.profiles?.documents.map((doc) => doc.id) ?? [], 'documents', 'id');
    refuseDuplicateIds('--projects', input.projects?.documents.map((doc) => doc.id) ?? [], 'documents', 'id');

    const { users, accountOf } = await this.planUsers(input, summary);
    const projects = await this.planProjects(input, accountOf, summary);
    const staged = await this.stagePictures(users, input.storageOrigin, summary);
    try {
      await this.deps.writes.run(async (trx, write) => {
        for (const user of users) {
          const picture = staged.get(user.row.id);
          if (!picture) throw new Error(`no picture staged for ${user.row.id}`);
          const photoURL = await this.deps.thumbnails.record(trx, user.row.id, picture);
          await insertImportedUser(trx, { ...user.row, photoURL });
          write.changed({ collection: 'users', id: user.row.id });
        }
        for (const project of projects) {
          await insertImportedProject(trx, project.row);
          await insertImportedComments(trx, project.comments);
          write.changed({ collection: 'projects', id: project.row.id });
        }
      });
    } catch (error) {
      for (const picture of staged.values()) await this.deps.thumbnails.discard(picture);
      throw error;
    }
    summary.users.imported = users.length;
    summary.projects.imported = projects.length;
    summary.comments.imported = projects.reduce((sum, project) => sum + project.comments.length, 0);
    return summary;
  }

  /**
   * Which accounts to create, and whom each Firebase uid is here: itself once imported (now or by an
   * earlier run), or the account that already had the email.
   */
  private async planUsers(
    input: FirebaseImportInput,
    summary: FirebaseImportSummary,
  ): Promise<{ users: PlannedUser[]; accountOf: Map<string, string> }> {
    const { db } = this.deps;
    const authUsers = input.authExport.users;
    const profiles = new Map(input.profiles?.documents.map((doc) => [doc.id, doc.data]) ?? []);
    const imported = await existingUserIds(
      db,
      authUsers.map((user) => user.localId),
    );
    const emailOwners = await accountsByEmailKey(
      db,
      authUsers.flatMap((user) => (user.email ? [user.email.trim().toLowerCase()] : [])),
    );
    const accountOf = new Map<string, string>();
    const plannedByEmail = new Map<string, string>();
    const plannedNames = new Set<string>();
    const users: PlannedUser[] = [];
    const now = nowIso();

    for (const user of authUsers) {
      const label = `${user.email ?? '(no email)'} (uid ${user.localId})`;
      const skip = (reason: string): void => void summary.users.skipped.push({ what: label, reason });
      if (imported.has(user.localId)) {
        accountOf.set(user.localId, user.localId);
        skip('already imported');
        continue;
      }
      const email = EmailSchema.safeParse(user.email ?? '');
      if (!email.success) {
        skip(user.email ? 'its email address is not valid here' : 'no email address to sign in with');
        continue;
      }
      const emailKey = email.data.toLowerCase();
      const owner = emailOwners.get(emailKey);
      if (owner) {
        accountOf.set(user.localId, owner);
        skip(
          'an account here already has this email: it keeps its password and profile, and is credited with their projects and comments',
        );
        continue;
      }
      const twin = plannedByEmail.get(emailKey);
      if (twin) {
        accountOf.set(user.localId, twin);
        skip(`the same email as uid ${twin} in this export`);
        continue;
      }
      const profile = profiles.get(user.localId);
      const wantedName = profile?.displayName ?? user.displayName ?? '';
      const displayName = await this.freeDisplayName(wantedName, email.data, plannedNames);
      if (displayName !== wantedName.trim()) {
        summary.notes.push(
          `${label} is named '${displayName}' (was '${wantedName}': taken or not allowed here)`,
        );
      }
      const passwordHash = importedPasswordHash(user, input.hash);
      if (!passwordHash) {
        summary.notes.push(
          `${label} has no password hash in the export: a password reset link gives them one`,
        );
      }
      if (user.disabled) summary.notes.push(`${label} is imported deactivated: it was disabled in Firebase`);
      plannedByEmail.set(emailKey, user.localId);
      accountOf.set(user.localId, user.localId);
      users.push({
        label,
        photoURL: profile?.photoURL || user.photoUrl || undefined,
        row: {
          id: user.localId,
          email: email.data,
          passwordHash,
          displayName,
          status: user.disabled ? 'deactivated' : 'active',
          createdAt: millisToIso(user.createdAt) ?? now,
          lastActiveAt: millisToIso(user.lastSignedInAt),
          now,
        },
      });
    }
    const authIds = new Set(authUsers.map((user) => user.localId));
    for (const doc of input.profiles?.documents ?? []) {
      if (!authIds.has(doc.id)) {
        summary.users.skipped.push({
          what: `profile ${doc.id} (${doc.data.displayName ?? 'no name'})`,
          reason: 'in the users collection but not in the users export: no account to sign in with',
        });
      }
    }
    return { users, accountOf };
  }

  /**
   * The wanted name if it is allowed and free, else with " (2)", " (3)"…; the email's local part when the
   * wanted one is not a valid name at all (decision 046: no two members go by one name).
   */
  private async freeDisplayName(wanted: string, email: string, planned: Set<string>): Promise<string> {
    const valid = (name: string): string | undefined => {
      const parsed = DisplayNameSchema.safeParse(name);
      return parsed.success ? parsed.data : undefined;
    };
    const base =
      valid(wanted) ??
      valid(email.slice(0, email.indexOf('@')).slice(0, DISPLAY_NAME_MAX_LENGTH)) ??
      'Member';
    for (let attempt = 1; attempt <= MAX_NAME_SUFFIX; attempt += 1) {
      const suffix = attempt === 1 ? '' : ` (${attempt})`;
      const candidate = `${base.slice(0, DISPLAY_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
      const key = displayNameKey(candidate);
      if (key === displayNameKey(DELETED_USER_NAME) || planned.has(key)) continue;
      if (await isDisplayNameTaken(this.deps.db, candidate, null)) continue;
      planned.add(key);
      return candidate;
    }
    throw new FirebaseImportError(`no free display name near '${base}'`);
  }

  private async planProjects(
    input: FirebaseImportInput,
    accountOf: Map<string, string>,
    summary: FirebaseImportSummary,
  ): Promise<PlannedProject[]> {
    const documents = input.projects?.documents ?? [];
    const already = await existingProjectIds(
      this.deps.db,
      documents.map((doc) => doc.id),
    );
    const findAuthor = authorFinder(input);
    const projects: PlannedProject[] = [];
    const now = nowIso();
    for (const { id, data } of documents) {
      const label = `project ${id} ('${data.name.slice(0, 60)}')`;
      const skip = (reason: string): void => {
        summary.projects.skipped.push({ what: label, reason });
        if (data.comments.length > 0) {
          summary.comments.skipped.push({
            what: `${data.comments.length} comment(s) of ${label}`,
            reason:
              reason === 'already imported'
                ? 'their project is already imported'
                : 'their project is skipped',
          });
        }
      };
      if (already.has(id)) {
        skip('already imported');
        continue;
      }
      const creator = accountOf.get(data.createdBy.id);
      if (!creator) {
        skip(`its creator (uid ${data.createdBy.id}) is not among the imported accounts`);
        continue;
      }
      const problem = projectProblem(data);
      if (problem) {
        skip(problem);
        continue;
      }
      const assigneeIds: string[] = [];
      for (const assignee of data.assignedUsersList) {
        const account = accountOf.get(assignee.id);
        if (!account) {
          summary.notes.push(
            `${label}: assignee uid ${assignee.id} is not among the imported accounts, left out`,
          );
        } else if (!assigneeIds.includes(account)) {
          assigneeIds.push(account);
        }
      }
      if (assigneeIds.length > MAX_ASSIGNEES) {
        summary.notes.push(`${label}: only its first ${MAX_ASSIGNEES} assignees are kept`);
        assigneeIds.length = MAX_ASSIGNEES;
      }
      const comments: ImportedCommentRow[] = [];
      const inOrder = data.comments
        .map((comment, index) => ({ comment, index, at: timestampToDate(comment.createdAt) }))
        .sort((a, b) => a.at.getTime() - b.at.getTime() || a.index - b.index);
      for (const { comment, index, at } of inOrder) {
        const what = `comment ${index + 1} of ${label}`;
        const author = findAuthor(comment, accountOf);
        if (comment.content.trim() === '') {
          summary.comments.skipped.push({ what, reason: 'empty' });
        } else if (comment.content.length > COMMENT_MAX_LENGTH) {
          summary.comments.skipped.push({ what, reason: `longer than ${COMMENT_MAX_LENGTH} characters` });
        } else if (!author) {
          summary.comments.skipped.push({
            what,
            reason: `its author ('${comment.displayName ?? ''}') matches no imported account`,
          });
        } else {
          comments.push({
            id: commentId(id, index, comment),
            projectId: id,
            authorId: author,
            content: comment.content,
            createdAt: at.toISOString(),
          });
        }
      }
      projects.push({
        comments,
        row: {
          id,
          name: data.name.trim(),
          details: data.details.trim(),
          category: data.category,
          dueDate: calendarDay(data.dueDate),
          createdBy: creator,
          createdAt: timestampToDate(data.createdAt).toISOString(),
          // The original app deleted a project when it was completed: what is left is open.
          completedAt: null,
          assigneeIds,
          now,
        },
      });
    }
    return projects;
  }

  /**
   * Each new member's picture fetched from the bucket and staged (no row yet); one that cannot be fetched
   * gets a generated picture, as a single-sign-on account without one does.
   */
  private async stagePictures(
    users: readonly PlannedUser[],
    storageOrigin: string,
    summary: FirebaseImportSummary,
  ): Promise<Map<string, StagedThumbnail>> {
    const staged = new Map<string, StagedThumbnail>();
    const queue = [...users];
    const stageNext = async (): Promise<void> => {
      for (let user = queue.shift(); user; user = queue.shift()) {
        const fetched = user.photoURL
          ? await fetchStoragePicture(user.photoURL, storageOrigin)
          : { problem: 'no photoURL' };
        let picture: { bytes: Buffer; fileName: string };
        if ('problem' in fetched) {
          summary.thumbnails.skipped.push({
            what: user.label,
            reason: `${fetched.problem}; a generated picture instead`,
          });
          picture = { bytes: generatedAvatarPng(user.row.id), fileName: 'avatar.png' };
        } else {
          summary.thumbnails.imported += 1;
          picture = fetched;
        }
        staged.set(user.row.id, await this.deps.thumbnails.stage(user.row.id, picture, false));
      }
    };
    try {
      await Promise.all(Array.from({ length: PICTURE_FETCHES_IN_FLIGHT }, stageNext));
    } catch (error) {
      for (const picture of staged.values()) await this.deps.thumbnails.discard(picture);
      throw error;
    }
    return staged;
  }
}

function refuseDuplicateIds(option: string, ids: readonly string[], list: string, field: string): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) {
      throw new FirebaseImportError(
        `${option}: ${list}[${index}].${field} '${id}' appears twice; nothing was imported`,
      );
    }
    seen.add(id);
  });
}

/** Our stored form of the account's Firebase hash, or '' when the export has none (another sign-in method). */
function importedPasswordHash(user: FirebaseAuthUser, hash: FirebaseHashParameters): string {
  if (!user.passwordHash || !user.salt) return '';
  const decode = (base64: string): Buffer =>
    Buffer.from(base64.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return firebasePasswordHash(hash, decode(user.salt), decode(user.passwordHash));
}

const millisToIso = (millis: string | number | undefined): string | null =>
  millis === undefined ? null : new Date(Number(millis)).toISOString();

/**
 * The day a due date stands for. The original app stored the chosen day as its midnight UTC
 * (docs/product-spec.md#flaw-5), so the UTC day of the Timestamp is the day that was chosen.
 */
function calendarDay(value: FirestoreTimestamp): string {
  if (typeof value === 'string' && isCalendarDay(value)) return value;
  return timestampToDate(value).toISOString().slice(0, 10);
}

/** Why a project cannot be kept under our rules (the original app had none), or null. */
function projectProblem(data: FirestoreProject): string | null {
  const name = data.name.trim();
  const details = data.details.trim();
  if (name === '') return 'no name';
  if (name.length > PROJECT_NAME_MAX_LENGTH)
    return `a name longer than ${PROJECT_NAME_MAX_LENGTH} characters`;
  if (details === '') return 'no details';
  if (details.length > PROJECT_DETAILS_MAX_LENGTH)
    return `details longer than ${PROJECT_DETAILS_MAX_LENGTH} characters`;
  if (!(PROJECT_CATEGORIES as readonly string[]).includes(data.category)) {
    return `category '${data.category}' is not one of ${PROJECT_CATEGORIES.join(', ')}`;
  }
  if (!isCalendarDay(calendarDay(data.dueDate))) return 'its due date is not a day';
  return null;
}

/**
 * Who wrote a comment: the original app kept only the author's name and picture on it
 * (docs/product-spec.md#flaw-2). Its `authorId` when present; else the member whose picture URL it carries
 * (unique per member); else the one member of that display name. Null when none or several match.
 */
function authorFinder(input: FirebaseImportInput) {
  const byPhoto = new Map<string, string | null>();
  const byName = new Map<string, string | null>();
  const add = (map: Map<string, string | null>, key: string | undefined, uid: string): void => {
    if (!key) return;
    const known = map.get(key);
    map.set(key, known === undefined || known === uid ? uid : null);
  };
  for (const user of input.authExport.users) {
    add(byPhoto, user.photoUrl, user.localId);
    add(byName, user.displayName, user.localId);
  }
  for (const doc of input.profiles?.documents ?? []) {
    add(byPhoto, doc.data.photoURL, doc.id);
    add(byName, doc.data.displayName, doc.id);
  }
  return (comment: FirestoreComment, accountOf: Map<string, string>): string | undefined => {
    const uid =
      comment.authorId ??
      (comment.photoURL ? byPhoto.get(comment.photoURL) : undefined) ??
      (comment.displayName ? byName.get(comment.displayName) : undefined);
    return uid ? accountOf.get(uid) : undefined;
  };
}

/** The same id on every run for the same comment of the same project: ids like `newId`'s, derived. */
const commentId = (projectId: string, index: number, comment: FirestoreComment): string =>
  createHash('sha256')
    .update(`firebase-comment\0${projectId}\0${index}\0${String(comment.id ?? '')}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

/** The summary as the command prints it. */
export function formatSummary(summary: FirebaseImportSummary): string {
  const lines: string[] = [];
  const section = (title: string, counts: ImportTally): void => {
    lines.push(`${title}: ${counts.imported} imported, ${counts.skipped.length} skipped`);
    for (const { what, reason } of counts.skipped) lines.push(`  skipped ${what}: ${reason}`);
  };
  section('Users', summary.users);
  section('Projects', summary.projects);
  section('Comments', summary.comments);
  section('Thumbnails', summary.thumbnails);
  if (summary.notes.length > 0) {
    lines.push('Notes:');
    for (const note of summary.notes) lines.push(`  ${note}`);
  }
  return lines.join('\n');
}

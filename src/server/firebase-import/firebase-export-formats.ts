import { z } from 'zod';

/**
 * The files the Firebase importer reads (docs/firebase-import.md): the Firebase Auth users export
 * (`firebase auth:export users.json --format=json`) and the `users` and `projects` collections as the
 * export script in that guide writes them. Each is checked whole before anything is written; a file that
 * does not match is refused with the path of its first problems.
 */

/** Standard or URL-safe base64, as `auth:export` writes hashes and salts (padding optional). */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const base64 = () => z.string().regex(BASE64, 'not base64');

/**
 * Firebase uids and Firestore document ids become our ids as they are (so a second run finds them), so
 * they must be what our ids are: URL-safe, at most 64 characters.
 */
const FIREBASE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const firebaseId = () => z.string().regex(FIREBASE_ID, 'not an id of 1 to 64 letters, digits, - or _');

/** Milliseconds since 1970, as the export writes them: a string of digits (or a number). */
const epochMillis = z.union([
  z.string().regex(/^\d{1,15}$/, 'not milliseconds since 1970'),
  z.number().int(),
]);

/** One account of `auth:export`'s JSON (fields it does not write, or that we do not carry, are ignored). */
const FirebaseAuthUserSchema = z.object({
  localId: firebaseId(),
  email: z.string().optional(),
  emailVerified: z.boolean().optional(),
  passwordHash: base64().optional(),
  salt: base64().optional(),
  displayName: z.string().optional(),
  photoUrl: z.string().optional(),
  createdAt: epochMillis.optional(),
  lastSignedInAt: epochMillis.optional(),
  disabled: z.boolean().optional(),
});
export type FirebaseAuthUser = z.infer<typeof FirebaseAuthUserSchema>;

export const FirebaseAuthExportSchema = z.object({ users: z.array(FirebaseAuthUserSchema) });
export type FirebaseAuthExport = z.infer<typeof FirebaseAuthExportSchema>;

/**
 * A Firestore Timestamp as firebase-admin serialises it (`{_seconds, _nanoseconds}`), its public shape
 * (`{seconds, nanoseconds}`), or an ISO 8601 date-time (what the guide's script writes).
 */
const TimestampSchema = z.union([
  z.object({ _seconds: z.number().int(), _nanoseconds: z.number().int().min(0) }),
  z.object({ seconds: z.number().int(), nanoseconds: z.number().int().min(0) }),
  z
    .string()
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value) && !Number.isNaN(Date.parse(value)),
      'not an ISO 8601 date',
    ),
]);
export type FirestoreTimestamp = z.infer<typeof TimestampSchema>;

/** The moment a Timestamp stands for. */
export function timestampToDate(value: FirestoreTimestamp): Date {
  if (typeof value === 'string') return new Date(value);
  const [seconds, nanoseconds] =
    '_seconds' in value ? [value._seconds, value._nanoseconds] : [value.seconds, value.nanoseconds];
  return new Date(seconds * 1000 + Math.floor(nanoseconds / 1e6));
}

/** `{id, displayName, photoURL}`: how the original app pointed at a user inside a project. */
const UserRefSchema = z.object({
  id: firebaseId(),
  displayName: z.string().optional(),
  photoURL: z.string().optional(),
});

/**
 * A comment as the original app kept them, inside its project's `comments` array: no author id (the
 * author's name and picture only), an id from `Math.random()` (docs/product-spec.md#flaw-2). An `authorId`
 * is taken when present.
 */
const FirestoreCommentSchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  authorId: firebaseId().optional(),
  displayName: z.string().optional(),
  photoURL: z.string().optional(),
  content: z.string(),
  createdAt: TimestampSchema,
});
export type FirestoreComment = z.infer<typeof FirestoreCommentSchema>;

const FirestoreProjectSchema = z.object({
  name: z.string(),
  details: z.string(),
  category: z.string(),
  /** A Timestamp (the original app's midnight UTC of the chosen day) or a `YYYY-MM-DD` day. */
  dueDate: TimestampSchema,
  createdAt: TimestampSchema,
  createdBy: UserRefSchema,
  assignedUsersList: z.array(UserRefSchema).default([]),
  comments: z.array(FirestoreCommentSchema).default([]),
});
export type FirestoreProject = z.infer<typeof FirestoreProjectSchema>;

/** A profile of the `users` collection (docs/product-spec.md#33-user-profile); its id is the uid. */
const FirestoreProfileSchema = z.object({
  displayName: z.string().optional(),
  photoURL: z.string().optional(),
  online: z.boolean().optional(),
});

/** `{ "collection": name, "documents": [ { "id", "data" } ] }`, one file per collection. */
const collectionFile = <Data extends z.ZodType>(name: string, data: Data) =>
  z.object({
    collection: z.literal(name, { error: `not the '${name}' collection` }),
    documents: z.array(z.object({ id: firebaseId(), data })),
  });

export const ProjectsCollectionSchema = collectionFile('projects', FirestoreProjectSchema);
export type ProjectsCollection = z.infer<typeof ProjectsCollectionSchema>;
export const ProfilesCollectionSchema = collectionFile('users', FirestoreProfileSchema);
export type ProfilesCollection = z.infer<typeof ProfilesCollectionSchema>;

/** A file the importer refused: the message names the file and what is wrong. */
export class FirebaseImportError extends Error {}

const MAX_LISTED_PROBLEMS = 5;

/**
 * `text` parsed as JSON and checked against `schema`; otherwise a `FirebaseImportError` naming `label`
 * (the option and file) and the first problems, each with its path (e.g. `users[3].salt: not base64`).
 */
export function parseExportFile<Schema extends z.ZodType>(
  label: string,
  text: string,
  schema: Schema,
): z.infer<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FirebaseImportError(
      `${label} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, MAX_LISTED_PROBLEMS).map((issue) => {
    const at = issue.path.reduce<string>(
      (path, key) =>
        typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${String(key)}` : String(key),
      '',
    );
    return `  ${at || '(the whole file)'}: ${issue.message}`;
  });
  const more = result.error.issues.length - problems.length;
  throw new FirebaseImportError(
    [
      `${label} is not in the expected format; nothing was imported:`,
      ...problems,
      ...(more > 0 ? [`  and ${more} more`] : []),
    ].join('\n'),
  );
}

import type { Insertable, Kysely, Selectable } from 'kysely';
import { nameSearchKey } from '../../common';
import { ATTACHMENTS_PER_PROJECT_MAX, type Attachment } from '../../common/attachments';
import type { Database } from '../db/schema';

export type AttachmentRow = Selectable<Database['attachments']>;

/** Where every attachment's bytes are uploaded (`attachmentObjectName` in src/common/attachments.ts). */
const ATTACHMENT_AREA_PREFIX = 'attachments/';
type AttachmentWithUploader = Omit<AttachmentRow, 'seq' | 'search_name'> & { display_name: string };

/** The `Attachment` shape, written once: the list, the live query and the answer of a register. */
function presentAttachment(row: AttachmentWithUploader): Attachment {
  return {
    id: row.id,
    projectId: row.project_id,
    commentId: row.comment_id,
    name: row.name,
    size: Number(row.size),
    contentType: row.content_type,
    kind: row.kind,
    uploaderId: row.uploader_id,
    uploaderName: row.display_name,
    createdAt: row.created_at,
    hasThumbnail: row.thumbnail_name !== null,
  };
}

const selectAttachments = (db: Kysely<Database>) =>
  db
    .selectFrom('attachments')
    .innerJoin('users', 'users.id', 'attachments.uploader_id')
    .select([
      'attachments.id',
      'attachments.project_id',
      'attachments.comment_id',
      'attachments.uploader_id',
      'attachments.object_name',
      'attachments.name',
      'attachments.size',
      'attachments.content_type',
      'attachments.kind',
      'attachments.thumbnail_name',
      'attachments.created_at',
      'users.display_name',
    ]);

/** A project's attachments, newest first (commit order, reversed); served by the (project_id, seq) index. */
export async function listAttachments(db: Kysely<Database>, projectId: string): Promise<Attachment[]> {
  const rows = await selectAttachments(db)
    .where('attachments.project_id', '=', projectId)
    .orderBy('attachments.seq', 'desc')
    .limit(ATTACHMENTS_PER_PROJECT_MAX)
    .execute();
  return rows.map(presentAttachment);
}

export async function findAttachment(db: Kysely<Database>, id: string): Promise<Attachment | null> {
  const row = await selectAttachments(db).where('attachments.id', '=', id).executeTakeFirst();
  return row ? presentAttachment(row) : null;
}

/** The row itself (object names included), for serving and deleting. */
export async function findAttachmentRow(db: Kysely<Database>, id: string): Promise<AttachmentRow | null> {
  return (await db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function isObjectAttached(db: Kysely<Database>, objectName: string): Promise<boolean> {
  const row = await db
    .selectFrom('attachments')
    .select('id')
    .where('object_name', '=', objectName)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countAttachments(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('attachments')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Inserts an attachment in one statement that reads the project too, so none is added to a project that
 * was completed or deleted meanwhile. False when there is no such open project.
 */
export async function insertAttachmentIfProjectOpen(
  db: Kysely<Database>,
  row: Omit<Insertable<Database['attachments']>, 'seq' | 'search_name'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('attachments')
    .columns([
      'id',
      'project_id',
      'comment_id',
      'uploader_id',
      'object_name',
      'name',
      'search_name',
      'size',
      'content_type',
      'kind',
      'thumbnail_name',
      'created_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('projects')
        .select([
          eb.val(row.id).as('id'),
          'projects.id as project_id',
          eb.val(row.comment_id ?? null).as('comment_id'),
          eb.val(row.uploader_id).as('uploader_id'),
          eb.val(row.object_name).as('object_name'),
          eb.val(row.name).as('name'),
          eb.val(nameSearchKey(row.name)).as('search_name'),
          eb.val(row.size).as('size'),
          eb.val(row.content_type).as('content_type'),
          eb.val(row.kind).as('kind'),
          eb.val(row.thumbnail_name ?? null).as('thumbnail_name'),
          eb.val(row.created_at).as('created_at'),
        ])
        .where('projects.id', '=', row.project_id)
        .where('projects.completed_at', 'is', null),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteAttachmentRow(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db.deleteFrom('attachments').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a project exists and is open: attachments are written only then. */
export async function isProjectOpen(db: Kysely<Database>, projectId: string): Promise<boolean> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('id', '=', projectId)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** The project's creator, or null when there is no such project (open or completed). */
export async function projectCreatorOf(db: Kysely<Database>, projectId: string): Promise<string | null> {
  const row = await db
    .selectFrom('projects')
    .select('created_by')
    .where('id', '=', projectId)
    .executeTakeFirst();
  return row?.created_by ?? null;
}

/** The author of a comment of this project, or null when the project has no such comment. */
export async function commentAuthorOf(
  db: Kysely<Database>,
  projectId: string,
  commentId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('comments')
    .select('author_id')
    .where('id', '=', commentId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  return row?.author_id ?? null;
}

/**
 * Objects in the attachment areas (`attachments/…`) unchanged since `before` that no attachment row refers
 * to: uploads never registered (a tab closed between the two steps). Oldest first, at most `limit`.
 */
export async function findUnregisteredAttachmentObjects(
  db: Kysely<Database>,
  bucket: string,
  before: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('storage_objects')
    .select('storage_objects.name')
    .where('storage_objects.bucket', '=', bucket)
    .where('storage_objects.name', '>=', ATTACHMENT_AREA_PREFIX)
    .where('storage_objects.name', '<', `${ATTACHMENT_AREA_PREFIX}\uffff`)
    .where('storage_objects.updated', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('attachments')
            .select('attachments.id')
            .whereRef('attachments.object_name', '=', 'storage_objects.name'),
        ),
      ),
    )
    .orderBy('storage_objects.updated')
    .limit(limit)
    .execute();
  return rows.map((row) => row.name);
}

/**
 * Deletes one such object's row if it is still unregistered and unchanged since `before` (a registration or
 * a new upload of the same name in the meantime keeps it); returns its blob key, or undefined when it
 * stayed. One statement, so two instances sweeping at once delete it once.
 */
export async function deleteUnregisteredAttachmentObject(
  db: Kysely<Database>,
  bucket: string,
  name: string,
  before: string,
): Promise<string | undefined> {
  const deleted = await db
    .deleteFrom('storage_objects')
    .where('bucket', '=', bucket)
    .where('name', '=', name)
    .where('updated', '<', before)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('attachments').select('attachments.id').where('attachments.object_name', '=', name),
        ),
      ),
    )
    .returning('blob_key')
    .executeTakeFirst();
  return deleted?.blob_key;
}

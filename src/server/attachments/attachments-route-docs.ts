import { z } from 'zod';
import { AttachmentSchema, RegisterAttachmentSchema } from '../../common/attachments';
import { describeRoutes, jsonBody } from '../http/api-docs';
import { IdParamsSchema } from '../projects/projects-routes';
import { AttachmentParamsSchema } from './attachments-routes';

const tag = 'Attachments';
const bytes = z.string().meta({ format: 'binary' });

export const attachmentsRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/api/attachments/limits',
    tag,
    summary: "The largest attachment and the caller's storage quota",
    description:
      'Shown before an upload starts: `maxFileBytes` (ATTACHMENT_MAX_BYTES), `quotaBytes` ' +
      '(STORAGE_QUOTA_BYTES) and `usedBytes` (every object the caller owns and their open uploads).',
    caller: 'member',
    response: {
      status: 200,
      description: 'The limits',
      schema: z.object({ maxFileBytes: z.number(), quotaBytes: z.number(), usedBytes: z.number() }),
    },
  },
  {
    method: 'GET',
    path: '/api/projects/{id}/attachments',
    tag,
    summary: "The project's attachments, newest first",
    description:
      'Open and completed projects alike. Also a live query (`attachments` where `projectId ==`, docs/api.md).',
    caller: 'member',
    params: IdParamsSchema,
    response: {
      status: 200,
      description: 'The attachments',
      schema: z.object({ attachments: z.array(AttachmentSchema) }),
    },
    errors: ['not-found'],
  },
  {
    method: 'POST',
    path: '/api/projects/{id}/attachments',
    tag,
    summary: 'Attach a finished upload to an open project (or to your comment on it)',
    description:
      'Upload the bytes first through the storage protocol to `attachments/{projectId}/{your uid}/{upload id}/{file name}` ' +
      '(docs/decisions/073-attachments.md), then register `objectName` here. The type is sniffed from the ' +
      'stored bytes, never taken from the upload; an image gets a thumbnail. 404 when no such upload of the ' +
      "caller exists or the project is not open; 403 for another's upload or comment; 409 when it is " +
      'already attached, or the project holds the most attachments it may.',
    caller: 'member',
    params: IdParamsSchema,
    body: jsonBody(RegisterAttachmentSchema),
    response: {
      status: 201,
      description: 'The attachment',
      schema: z.object({ attachment: AttachmentSchema }),
    },
    errors: ['forbidden', 'not-found', 'conflict', 'too-many-requests'],
  },
  {
    method: 'DELETE',
    path: '/api/attachments/{id}',
    tag,
    summary: 'Delete an attachment (its uploader, the project creator or an admin)',
    description: 'Removes the attachment, its stored bytes and its thumbnail; live viewers see it go.',
    caller: 'member',
    params: AttachmentParamsSchema,
    response: { status: 204, description: 'Deleted' },
    errors: ['forbidden', 'not-found', 'too-many-requests'],
  },
  {
    method: 'GET',
    path: '/api/attachments/{id}/content',
    tag,
    summary: "An attachment's bytes",
    description:
      'Raster images, PDF and plain text (as sniffed) are inline with their type; anything else, and any ' +
      'markup (HTML, SVG, XML), is `Content-Disposition: attachment` as application/octet-stream. Always ' +
      '`X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. `Accept-Ranges: bytes`: ' +
      'a single `Range: bytes=start-end` (or `-suffix`) answers 206 Partial Content with `Content-Range`, an ' +
      'unsatisfiable one 416 with `Content-Range: bytes */size`; several ranges, or an `If-Range` that is ' +
      'not the current ETag, answer 200 with the whole file.',
    caller: 'member',
    params: AttachmentParamsSchema,
    response: {
      status: 200,
      description: 'The bytes (206 with a Range header)',
      schema: bytes,
      contentType: 'application/octet-stream',
    },
    errors: ['not-found'],
  },
  {
    method: 'GET',
    path: '/api/attachments/{id}/thumbnail',
    tag,
    summary: "An image attachment's thumbnail (WebP, at most 320 px)",
    description: 'Only when the attachment has `hasThumbnail`; 404 otherwise.',
    caller: 'member',
    params: AttachmentParamsSchema,
    response: { status: 200, description: 'The thumbnail', schema: bytes, contentType: 'image/webp' },
    errors: ['not-found'],
  },
]);

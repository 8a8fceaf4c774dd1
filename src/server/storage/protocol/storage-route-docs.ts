import { z } from 'zod';
import { ObjectResourceSchema, WritableMetadataSchema } from '../../../common';
import { describeRoutes } from '../../http/api-docs';

const tag = 'Storage';
const description = 'Follows docs/storage-protocol.md (the Firebase Storage v0 REST protocol).';

const ObjectParams = z.object({
  bucket: z.string(),
  object: z
    .string()
    .meta({ description: 'The full object path as ONE percent-encoded segment (`/` → `%2F`)' }),
});
const BucketParams = z.object({ bucket: z.string() });

const unauthenticated = {
  status: 401,
  description: 'Not signed in (or App Check token invalid when enforced)',
};
const forbidden = { status: 403, description: 'The storage rules refuse this write' };
const notFound = { status: 404, description: 'No such object (or no such bucket)' };
const noBucket = { status: 404, description: 'No such bucket: only the configured one exists' };
const invalid = { status: 400, description: 'Invalid name, arguments or body' };

export const storageRouteDocs = describeRoutes([
  {
    method: 'GET',
    path: '/v0/b/{bucket}/o',
    tag,
    summary: 'List objects (prefix, delimiter, pageToken, maxResults 1..1000)',
    description,
    caller: 'member',
    params: BucketParams,
    query: z.object({
      prefix: z.string().optional(),
      delimiter: z.string().optional(),
      pageToken: z.string().optional(),
      maxResults: z.number().int().min(1).max(1000).optional(),
    }),
    response: {
      status: 200,
      description: 'One page',
      schema: z.object({
        prefixes: z.array(z.string()).optional(),
        items: z.array(z.object({ name: z.string(), bucket: z.string() })).optional(),
        nextPageToken: z.string().optional(),
      }),
    },
    storageErrors: [invalid, unauthenticated, noBucket],
  },
  {
    method: 'POST',
    path: '/v0/b/{bucket}/o',
    tag,
    summary: 'Upload: multipart, resumable start, or a resumable command on an upload URL',
    description: `${description} Dispatches on X-Goog-Upload-Protocol (multipart | resumable; without it, uploadType, else a raw media upload) and, with upload_id, on X-Goog-Upload-Command (upload | upload, finalize | finalize | query | cancel). Chunks are placed by X-Goog-Upload-Offset: below the bytes received the overlap is dropped, above it nothing is written and the answer is 503. Chunk bodies up to 40 MiB; multipart bodies up to the quota. An open resumable session reserves its declared size of the quota from its start. contentType and the other header-bound metadata are validated (400).`,
    caller: 'member',
    params: BucketParams,
    query: z.object({ name: z.string().optional(), upload_id: z.string().optional() }),
    body: { contentType: 'multipart/related', schema: z.string().meta({ format: 'binary' }) },
    response: {
      status: 200,
      description: 'Object resource (final) or upload status headers',
      schema: ObjectResourceSchema,
    },
    storageErrors: [
      invalid,
      unauthenticated,
      { status: 402, description: 'Storage quota exceeded' },
      forbidden,
      {
        status: 404,
        description: 'No such bucket, or no such upload session (unknown, or expired 24 h after its start)',
      },
      { status: 413, description: 'Chunk or metadata body too large' },
      { status: 429, description: 'Too many unfinished resumable uploads (at most 20 per user)' },
      { status: 503, description: 'Chunk offset beyond the bytes received: query and resume' },
    ],
  },
  {
    method: 'GET',
    path: '/v0/b/{bucket}/o/{object}',
    tag,
    summary: 'Object metadata, or its bytes with alt=media (Range supported)',
    description,
    caller: 'member',
    proof: 'session-token-or-download-token',
    params: ObjectParams,
    query: z.object({ alt: z.literal('media').optional(), token: z.string().optional() }),
    response: {
      status: 200,
      description: 'Object resource, or the bytes (206 with Range)',
      schema: ObjectResourceSchema,
    },
    storageErrors: [
      invalid,
      unauthenticated,
      notFound,
      { status: 416, description: 'Range not satisfiable' },
    ],
  },
  {
    method: 'PATCH',
    path: '/v0/b/{bucket}/o/{object}',
    tag,
    summary: 'Update metadata (absent keys unchanged, null removes)',
    description,
    caller: 'member',
    params: ObjectParams,
    body: { contentType: 'application/json', schema: WritableMetadataSchema },
    response: { status: 200, description: 'The updated object resource', schema: ObjectResourceSchema },
    storageErrors: [invalid, unauthenticated, forbidden, notFound],
  },
  {
    method: 'DELETE',
    path: '/v0/b/{bucket}/o/{object}',
    tag,
    summary: 'Delete an object',
    description,
    caller: 'member',
    params: ObjectParams,
    response: { status: 204, description: 'Deleted' },
    storageErrors: [unauthenticated, forbidden, notFound],
  },
  {
    method: 'POST',
    path: '/api/app-check/token',
    tag,
    summary: 'Mint an App Check token for this web app (sent as X-Firebase-AppCheck)',
    description:
      'HS256, valid for one hour; required on /v0 requests only when APP_CHECK_ENFORCED=true (docs/decisions/004-app-check.md).',
    caller: 'anyone',
    response: {
      status: 200,
      description: 'A short-lived App Check token',
      schema: z.object({ token: z.string(), expiresIn: z.number() }),
    },
    errors: ['forbidden', 'too-many-requests'],
  },
]);

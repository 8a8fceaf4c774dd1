import type { FastifyInstance } from 'fastify';

import type { ViewerResolver } from '../auth/viewer';
import { storageError } from './storage-errors';
import { parseObjectUrl, parseRange } from './object-path';
import { toObjectResource, type StorageService } from './storage-service';

const RASTER_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
]);

/** The storage protocol (STORAGE-PROTOCOL.md) under /v0/b/{bucket}/o: object metadata and download. */
export function registerStorageRoutes(
  app: FastifyInstance,
  deps: { storage: StorageService; viewers: ViewerResolver },
): void {
  app.get('/v0/b/:bucket/o/*', async (request, reply) => {
    const target = parseObjectUrl(request.raw.url ?? '');
    if (!target?.name) return storageError(reply, 400, 'Invalid object name.');
    const query = request.query as Record<string, string | undefined>;
    const row = await deps.storage.find(target.bucket, target.name);
    const tokenGrantsRead =
      row !== undefined && query.token !== undefined && row.download_tokens.split(',').includes(query.token);
    if (!tokenGrantsRead && !(await deps.viewers.viewerOf(request))) {
      return storageError(
        reply,
        401,
        'User is not authenticated, please authenticate using Firebase Authentication and try again.',
      );
    }
    if (!row) return storageError(reply, 404, `Object '${target.name}' does not exist.`);
    if (query.alt !== 'media') return toObjectResource(row);

    const range = parseRange(request.headers.range, row.size);
    if (range === 'invalid') {
      return reply.status(416).header('content-range', `bytes */${row.size}`).send();
    }
    // Only verified raster images render inline; anything else downloads, sandboxed, never as a page.
    const inline = RASTER_TYPES.has(row.content_type);
    reply
      .header('content-type', inline ? row.content_type : safeDownloadType(row.content_type))
      .header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=utf-8''${encodeURIComponent(row.name.split('/').pop() ?? '')}`,
      )
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('accept-ranges', 'bytes')
      .header('etag', `"${row.md5_hash}"`)
      .header('cache-control', 'private, max-age=3600');
    if (range) {
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${row.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(deps.storage.readBytes(row, range));
    }
    return reply.header('content-length', row.size).send(deps.storage.readBytes(row));
  });
}

function safeDownloadType(contentType: string): string {
  return contentType.toLowerCase().includes('svg') || contentType.toLowerCase().includes('html')
    ? 'application/octet-stream'
    : contentType;
}

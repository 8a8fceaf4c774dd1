import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  RegisterAttachmentSchema,
  type Attachment,
  type AttachmentLimits,
  type AttachmentList,
} from '../../common/attachments';
import { parseInput } from '../core/validate';
import type { ViewerResolver } from '../http/viewer-resolver';
import { perUserRateLimit } from '../http/write-rate-limit';
import { parseRange } from '../storage/protocol/request-parsers';
import { IdParamsSchema } from '../projects/projects-routes';
import type { AttachmentBytes, AttachmentsService } from './attachments-service';

export const AttachmentParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The sandbox every attachment is served in: no script, no plugin, an opaque origin. */
const ATTACHMENT_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/**
 * How a browser may treat an attachment (docs/decisions/073-attachments.md): the kinds that render
 * (raster images, PDF, plain text: judged by the server's sniffing) inline with their sniffed type;
 * everything else a download of application/octet-stream. Always nosniff and the sandbox CSP. The name is
 * the RFC 6266 `filename*` form (percent-encoded UTF-8), so no quote or line break in it matters.
 */
function attachmentHeaders(bytes: AttachmentBytes, which: 'content' | 'thumbnail') {
  const { attachment } = bytes;
  const inline = which === 'thumbnail' || attachment.kind !== 'other';
  const fileName = encodeURIComponent(
    which === 'thumbnail' ? `${attachment.name}.thumbnail.webp` : attachment.name,
  ).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return {
    'content-type': inline ? bytes.contentType : 'application/octet-stream',
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${fileName}`,
    'content-length': String(bytes.size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': ATTACHMENT_CSP,
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'private, max-age=3600',
    'accept-ranges': 'bytes',
    etag: `"${bytes.md5}"`,
  };
}

/**
 * The one range a request asks for, so a PDF viewer or a video seeks without the whole file
 * (section 14.2 of RFC 9110): null answers the whole file (no Range, several ranges, or an If-Range that
 * is not the current entity tag), 'unsatisfiable' a 416.
 */
function requestedRange(
  request: FastifyRequest,
  bytes: AttachmentBytes,
): { start: number; end: number } | null | 'unsatisfiable' {
  const header = request.headers.range;
  if (!header || header.includes(',')) return null;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== `"${bytes.md5}"`) return null;
  const range = parseRange(header, bytes.size);
  return range === 'invalid' ? 'unsatisfiable' : range;
}

/** Thin routes: authenticate, parse the input with the shared schemas, call the service, present. */
export function registerAttachmentsRoutes(
  app: FastifyInstance,
  deps: {
    attachments: AttachmentsService;
    viewers: ViewerResolver;
    /** Registers and deletes per user per minute (UPLOADS_PER_MINUTE, as for the uploads themselves). */
    writesPerMinute: number;
  },
): void {
  const { attachments, viewers } = deps;
  const writeLimit = { rateLimit: perUserRateLimit(viewers, deps.writesPerMinute) };

  app.get('/api/attachments/limits', async (request): Promise<AttachmentLimits> => {
    const viewer = await viewers.requireViewer(request);
    return attachments.limits(viewer);
  });

  app.get('/api/projects/:id/attachments', async (request): Promise<AttachmentList> => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return { attachments: await attachments.list(viewer, id) };
  });

  app.post(
    '/api/projects/:id/attachments',
    { config: writeLimit },
    async (request, reply): Promise<{ attachment: Attachment }> => {
      const viewer = await viewers.requireViewer(request);
      const { id } = parseInput(IdParamsSchema, request.params);
      const input = parseInput(RegisterAttachmentSchema, request.body);
      const attachment = await attachments.register(viewer, id, input);
      reply.status(201);
      return { attachment };
    },
  );

  app.delete('/api/attachments/:id', { config: writeLimit }, async (request, reply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(AttachmentParamsSchema, request.params);
    await attachments.delete(viewer, id);
    return reply.status(204).send();
  });

  const serve = (which: 'content' | 'thumbnail') => async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = await viewers.requireViewer(request);
    const { id } = parseInput(AttachmentParamsSchema, request.params);
    const bytes = await attachments.bytes(viewer, id, which);
    const range = requestedRange(request, bytes);
    if (range === 'unsatisfiable') {
      return reply.status(416).header('content-range', `bytes */${bytes.size}`).send();
    }
    reply.headers(attachmentHeaders(bytes, which));
    if (range === null) return reply.send(bytes.read());
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${bytes.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(bytes.read(range));
  };
  app.get('/api/attachments/:id/content', serve('content'));
  app.get('/api/attachments/:id/thumbnail', serve('thumbnail'));
}

import fastifyCors from '@fastify/cors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../../common';
import { AppError } from '../../core/app-error';
import type { ViewerResolver } from '../../http/viewer-resolver';
import type { Viewer } from '../../core/viewer';
import type { Config } from '../../config/config';
import { perUserRateLimit } from '../../http/write-rate-limit';
import { refuseDeclaredBodyOver, settleUnreadBody } from '../../http/request-body';
import { prepareJsonErrorReply, sendFault } from '../../http/error-handler';
import type { AppCheckIssuer, AppCheckVerifier } from './app-check';
import { readAll } from '../../core/byte-streams';
import { boundaryOf, MultipartError } from './multipart-related';
import { parseListQuery } from '../objects/object-listing';
import { isValidObjectName } from '../objects/object-names';
import { downloadHeaders } from './download-headers';
import { parseObjectUrl, parseQuery, parseRange } from './request-parsers';
import { StorageProtocolError, storageErrors } from './storage-errors';
import { maxBytesOf, writeAreaOf } from '../objects/storage-rules';
import { toObjectResource } from '../objects/object-presenter';
import { CHUNK_MAX_BYTES, type ResumableUploads, type UploadState } from '../uploads/resumable-uploads';
import type { StorageService } from '../objects/storage-service';

interface Deps {
  storage: StorageService;
  resumableUploads: ResumableUploads;
  viewers: ViewerResolver;
  appCheck: AppCheckVerifier & AppCheckIssuer;
  config: Pick<Config, 'appCheckEnforced' | 'publicUrl' | 'uploadsPerMinute'>;
}

/**
 * Headers a browser page on another origin may read (docs/storage-protocol.md §1.5): the emulator's list plus
 * download headers.
 */
const EXPOSED_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'content-disposition',
  'accept-ranges',
  'etag',
  'x-firebase-storage-version',
  'X-Goog-Upload-Size-Received',
  'x-goog-upload-url',
  'x-goog-upload-command',
  'x-gupload-uploadid',
  'x-goog-upload-header-content-length',
  'x-goog-upload-header-content-type',
  'x-goog-upload-protocol',
  'x-goog-upload-status',
  'x-goog-upload-chunk-granularity',
  'x-goog-upload-control-url',
  'x-goog-generation',
  'x-goog-metageneration',
  'x-goog-hash',
].join(', ');
const ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD'];
/** How long a browser may reuse a preflight answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 3600;
const METADATA_BODY_MAX_BYTES = 64 * 1024;
const BUCKET_NAME = /^[A-Za-z0-9.\-_]+$/;
const APP_CHECK_RATE_LIMIT = { max: 30, timeWindow: '1 minute' };

/**
 * The storage protocol (docs/storage-protocol.md) under /v0/b/{bucket}/o, plus the App Check token endpoint.
 * The /v0 routes live in their own plugin scope: their bodies are streamed (uploads of any size, chunks
 * up to 40 MiB) and their errors use the protocol's body, while the JSON API keeps its parsers and limits.
 */
export function registerStorageRoutes(app: FastifyInstance, deps: Deps): void {
  const { storage } = deps;
  const publicOrigin =
    deps.config.publicUrl === undefined ? undefined : new URL(deps.config.publicUrl).origin;

  app.post('/api/app-check/token', { config: { rateLimit: APP_CHECK_RATE_LIMIT } }, async () =>
    deps.appCheck.mint(),
  );

  // Node closes only the connections idle when the server starts closing; a download still streaming
  // then keeps its keep-alive connection open long after. Ending it once its response is done lets a
  // shutdown finish promptly.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  void app.register(
    async (scope) => {
      // Bodies are read by the handlers as streams, with their own limits; nothing is parsed up front.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

      // Before the CORS plugin's hook, which answers a preflight itself.
      scope.addHook('onRequest', async (request, reply) => {
        // helmet says same-origin for the app; other-origin clients must be able to read storage.
        reply.header('cross-origin-resource-policy', 'cross-origin');
        // Private Network Access: only the app's own pages (PUBLIC_URL's origin) may reach a server on the
        // LAN from a public address; any other public page asking is left to the browser's refusal.
        if (
          request.method === 'OPTIONS' &&
          request.headers['access-control-request-private-network'] === 'true' &&
          publicOrigin !== undefined &&
          request.headers.origin === publicOrigin
        ) {
          reply.header('access-control-allow-private-network', 'true');
        }
      });
      // Any origin may call storage (docs/storage-protocol.md#15-cross-origin-requests-cors): without the
      // session cookie (the app-wide cross-site check refuses it), so nothing is sent on a visitor's behalf.
      // Preflights reflect the headers asked for; a caller without an Origin header gets `*`.
      await scope.register(fastifyCors, {
        origin: (origin, allow) => allow(null, origin ?? '*'),
        methods: ALLOWED_METHODS,
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
        strictPreflight: false,
      });
      // A reply sent before the body was read (a refusal): drop a small rest, close on a large one
      // (settleUnreadBody). The body's iterator is closed first: while its 'readable' listener is attached,
      // resume() does nothing and the connection stalls.
      scope.addHook('onSend', async (request, reply) => {
        await bodyIterators.get(request)?.return?.();
        settleUnreadBody(request, reply);
      });
      scope.addHook('onResponse', async (request) => {
        if (closing) request.raw.socket.end();
      });
      scope.setErrorHandler((error: FastifyError, request, reply) => {
        if (error instanceof StorageProtocolError) {
          for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
          return storageError(reply, error.status, error.message, error.extra.reasonPhrase);
        }
        if (error instanceof MultipartError) return storageError(reply, 400, error.message);
        // Thrown by the app-wide hooks (the cross-site check): same status and message, protocol body.
        if (error instanceof AppError) return storageError(reply, error.status, error.message);
        // The connection, not the request stream: a fully read request (any GET) is destroyed too.
        if (request.raw.socket.destroyed) {
          request.log.info({ err: error }, 'storage request ended by the client');
          return storageError(reply, 400, messages.badRequest);
        }
        if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
          return storageError(reply, error.statusCode === 413 ? 413 : 400, messages.badRequest);
        }
        const fault = sendFault(request, reply, error, (status, message) =>
          storageError(reply, status, message),
        );
        if (fault) return fault;
        request.log.error({ err: error }, 'unhandled storage error');
        request.server.metrics?.countStorageError();
        return storageError(reply, 500, messages.internal);
      });

      /** App Check (when enforced), then the signed-in user: 401 for either. */
      const requireCaller = async (request: FastifyRequest): Promise<Viewer> => {
        if (deps.config.appCheckEnforced) {
          const token = request.headers['x-firebase-appcheck'];
          if (typeof token !== 'string' || !(await deps.appCheck.verify(token))) {
            throw storageErrors.appCheckInvalid();
          }
        }
        const viewer = await deps.viewers.viewerOf(request);
        if (!viewer) throw storageErrors.unauthenticated();
        return viewer;
      };

      const listObjects = async (request: FastifyRequest, bucket: string) => {
        const query = requireQuery(request);
        const listRequest = parseListQuery(query);
        await requireCaller(request);
        const page = await storage.list(bucket, listRequest);
        return {
          prefixes: page.prefixes,
          items: page.items.map((name) => ({ name, bucket })),
          ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        };
      };

      scope.get('/b/:bucket/o', async (request) => {
        const { bucket } = requireTarget(request, storage.defaultBucket);
        return listObjects(request, bucket);
      });

      scope.get('/b/:bucket/o/*', async (request, reply) => {
        const { bucket, name } = requireTarget(request, storage.defaultBucket);
        if (name === undefined) return listObjects(request, bucket);
        requireValidName(name);
        const query = requireQuery(request);
        const row = await storage.find(bucket, name);
        // A download token is a capability on its own (docs/storage-protocol.md §4.3): no user, no App Check
        // (an <img> sends neither).
        const token = query.get('token');
        const tokenGrantsRead =
          row !== null && token !== undefined && row.download_tokens.split(',').includes(token);
        if (!tokenGrantsRead) await requireCaller(request);
        if (!row) throw storageErrors.objectNotFound(name);
        if (query.get('alt') !== 'media') return toObjectResource(row);

        const range = parseRange(request.headers.range, row.size);
        if (range === 'invalid') {
          return reply.status(416).header('content-range', `bytes */${row.size}`).send();
        }
        reply
          .headers(downloadHeaders(row.content_type, row.name))
          .header('accept-ranges', 'bytes')
          .header('etag', `"${row.md5_hash}"`)
          .header('x-goog-hash', `md5=${row.md5_hash}`)
          .header('x-goog-generation', row.generation)
          .header('x-goog-metageneration', String(row.metageneration))
          .header('cache-control', 'private, max-age=3600');
        if (range) {
          return reply
            .status(206)
            .header('content-range', `bytes ${range.start}-${range.end}/${row.size}`)
            .header('content-length', range.end - range.start + 1)
            .send(storage.readBytes(row, range));
        }
        return reply.header('content-length', row.size).send(storage.readBytes(row));
      });

      // Each upload counts once, when it starts: the further requests of a resumable session are free.
      const uploadLimit = perUserRateLimit(deps.viewers, deps.config.uploadsPerMinute, {
        refusal: () => new StorageProtocolError(429, messages.tooManyWrites),
        exempt: (request) => Object.hasOwn(request.query as object, 'upload_id'),
      });
      scope.post('/b/:bucket/o', { config: { rateLimit: uploadLimit } }, async (request, reply) => {
        const { bucket, name: pathName } = requireTarget(request, storage.defaultBucket);
        if (pathName !== undefined) throw storageErrors.invalidArgument('Upload to the bucket URL.');
        const query = requireQuery(request);
        const viewer = await requireCaller(request);
        const body = requestBodyStream(request);
        const name = query.get('name');

        const uploadId = query.get('upload_id');
        if (uploadId !== undefined) {
          refuseDeclaredBodyOver(request, CHUNK_MAX_BYTES, storageErrors.tooLarge);
          const state = await deps.resumableUploads.continue({
            viewerUid: viewer.uid,
            bucket,
            name,
            uploadId,
            commands: requireCommands(request),
            offset: optionalOffset(request),
            body,
          });
          return sendUploadState(reply, state);
        }

        const protocol = (header(request, 'x-goog-upload-protocol') ?? query.get('uploadType') ?? 'media')
          .trim()
          .toLowerCase();
        if (protocol === 'multipart') {
          const contentType = request.headers['content-type'];
          const boundary = boundaryOf(contentType);
          if (!boundary) throw storageErrors.invalidArgument(`Bad content type. ${contentType ?? ''}`.trim());
          return storage.uploadMultipart({ viewerUid: viewer.uid, bucket, name, boundary, body });
        }
        if (protocol === 'resumable') {
          const command = header(request, 'x-goog-upload-command')?.trim().toLowerCase();
          if (command !== 'start')
            throw storageErrors.invalidArgument('X-Goog-Upload-Command must be start.');
          const declared = header(request, 'x-goog-upload-header-content-length')?.trim() ?? '';
          if (!/^\d{1,15}$/.test(declared)) {
            throw storageErrors.invalidArgument('X-Goog-Upload-Header-Content-Length is required.');
          }
          refuseDeclaredBodyOver(request, METADATA_BODY_MAX_BYTES, storageErrors.tooLarge);
          const started = await deps.resumableUploads.start({
            viewerUid: viewer.uid,
            bucket,
            name,
            metadata: await readAll(body, METADATA_BODY_MAX_BYTES, storageErrors.tooLarge),
            declaredSize: Number(declared),
            declaredType: header(request, 'x-goog-upload-header-content-type'),
          });
          // PUBLIC_URL or a path the client resolves against the URL it called, never the request's Host
          // (docs/storage-protocol.md#48a-start).
          const base = deps.config.publicUrl ?? '';
          const uploadUrl =
            `${base}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(started.name)}` +
            `&upload_id=${encodeURIComponent(started.uploadId)}&upload_protocol=resumable`;
          return reply
            .header('X-Goog-Upload-Status', 'active')
            .header('X-Goog-Upload-URL', uploadUrl)
            .header('X-GUploader-UploadID', started.uploadId)
            .send();
        }
        if (protocol === 'media') {
          // The rules' size, from Content-Length, before the bytes: the same 403 as when the stream runs over.
          const area = name === undefined ? null : writeAreaOf(name, storage.attachmentMaxBytes);
          if (area)
            refuseDeclaredBodyOver(request, maxBytesOf(area), () => storageErrors.noWritePermission());
          return storage.uploadMedia({
            viewerUid: viewer.uid,
            bucket,
            name,
            contentType: request.headers['content-type'],
            body,
          });
        }
        throw storageErrors.invalidArgument('Unknown upload protocol.');
      });

      scope.patch('/b/:bucket/o/*', async (request) => {
        const { bucket, name } = requireObjectTarget(request, storage.defaultBucket);
        const viewer = await requireCaller(request);
        refuseDeclaredBodyOver(request, METADATA_BODY_MAX_BYTES, storageErrors.tooLarge);
        const body = await readAll(
          requestBodyStream(request),
          METADATA_BODY_MAX_BYTES,
          storageErrors.tooLarge,
        );
        return storage.updateMetadata(viewer.uid, bucket, name, body);
      });

      scope.delete('/b/:bucket/o/*', async (request, reply) => {
        const { bucket, name } = requireObjectTarget(request, storage.defaultBucket);
        const viewer = await requireCaller(request);
        await storage.deleteObject(viewer.uid, bucket, name);
        return reply.status(204).send();
      });
    },
    { prefix: '/v0' },
  );
}

const bodyIterators = new WeakMap<FastifyRequest, AsyncIterator<Uint8Array>>();

/**
 * The request body as a stream of bytes. Leaving the loop early does not destroy the request (the reply
 * still has to go out on its socket); onSend closes the iterator and drops what is left.
 */
function requestBodyStream(request: FastifyRequest): AsyncIterable<Uint8Array> {
  const iterator = request.raw.iterator({ destroyOnReturn: false }) as AsyncIterableIterator<Uint8Array>;
  bodyIterators.set(request, iterator);
  return iterator;
}

/**
 * Bucket and object name from the RAW url, each decoded exactly once (docs/storage-protocol.md §1.1). Only
 * the configured bucket exists: any other answers 404, before anything else is looked at.
 */
function requireTarget(
  request: FastifyRequest,
  configuredBucket: string,
): { bucket: string; name: string | undefined } {
  const target = parseObjectUrl(request.raw.url ?? '');
  if (!target || !BUCKET_NAME.test(target.bucket)) throw storageErrors.invalidName();
  if (target.bucket !== configuredBucket) throw storageErrors.bucketNotFound();
  return target;
}

function requireObjectTarget(
  request: FastifyRequest,
  configuredBucket: string,
): { bucket: string; name: string } {
  const { bucket, name } = requireTarget(request, configuredBucket);
  if (name === undefined) throw storageErrors.invalidName();
  requireValidName(name);
  return { bucket, name };
}

function requireValidName(name: string): void {
  if (!isValidObjectName(name)) throw storageErrors.invalidName();
}

function requireQuery(request: FastifyRequest): Map<string, string> {
  const query = parseQuery(request.raw.url ?? '');
  if (!query) throw storageErrors.invalidArgument('Malformed query string.');
  return query;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const KNOWN_COMMANDS = new Set(['upload', 'finalize', 'query', 'cancel']);

/**
 * `X-Goog-Upload-Command` as a set: `upload, finalize` is a comma-separated list
 * (docs/storage-protocol.md §4.8b).
 */
function requireCommands(request: FastifyRequest): Set<string> {
  const commands = new Set(
    (header(request, 'x-goog-upload-command') ?? '')
      .split(',')
      .map((command) => command.trim().toLowerCase())
      .filter((command) => command !== ''),
  );
  if (commands.size === 0 || [...commands].some((command) => !KNOWN_COMMANDS.has(command))) {
    throw storageErrors.invalidArgument('Invalid X-Goog-Upload-Command.');
  }
  return commands;
}

function optionalOffset(request: FastifyRequest): number | undefined {
  const raw = header(request, 'x-goog-upload-offset')?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw)) throw storageErrors.invalidArgument('Invalid X-Goog-Upload-Offset.');
  return Number(raw);
}

/** Each X-Goog-* header once (docs/storage-protocol.md §5.6); the object resource as the body once final. */
function sendUploadState(reply: FastifyReply, state: UploadState) {
  reply
    .header('X-Goog-Upload-Status', state.status)
    .header('X-Goog-Upload-Size-Received', String(state.received));
  return state.resource ? reply.send(state.resource) : reply.send();
}

/** The storage protocol's error body (docs/storage-protocol.md#81-error-body). */
function storageError(reply: FastifyReply, status: number, message: string, reasonPhrase?: string) {
  prepareJsonErrorReply(reply);
  if (reasonPhrase) reply.raw.statusMessage = reasonPhrase;
  return reply.status(status).send({ error: { code: status, message, requestId: reply.request.id } });
}

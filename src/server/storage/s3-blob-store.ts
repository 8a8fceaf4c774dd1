/**
 * Object bytes in an S3-compatible service (docs/decisions/022-s3-storage.md). Loaded only when
 * STORAGE_DRIVER=s3 (create-blob-store.ts imports it dynamically): the SDK is heavy and a disk install
 * never needs it.
 *
 * Layout under the key prefix: `blobs/<key>` for finished blobs; `uploads/<uploadId>/session` (empty) and
 * `uploads/<uploadId>/<offset>` for each acknowledged segment of a resumable upload. Nothing is kept in
 * this instance's memory or disk between calls, so the next chunk of an upload may reach any instance.
 */

import { UPLOAD_ID_PATTERN } from '../../common';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import type { BlobStore, PartWrite, StoredBlob, StoredEntry } from './blob-store';

export interface S3BlobStoreOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Prepended to every key (e.g. `dojo/`), so one bucket can hold several installs or other data. */
  keyPrefix: string;
}

/**
 * Bytes sent in one request: the size of a multipart part and of a resumable upload's segment. At least
 * S3's 5 MiB part minimum; memory per write in flight is about two of them (one sending, one filling).
 */
const SEGMENT_BYTES = 8 * 1024 * 1024;
const BLOB_KEY = /^[0-9a-f]{32}$/;
const OFFSET_DIGITS = 15;
const SESSION_MARKER = 'session';
const DELETE_CONCURRENCY = 8;

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Only the checksums S3 itself requires: the newer default (CRC32 trailers on every request) is not
      // understood by every S3-compatible service.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // S3 services answer 503 SlowDown under load and expect the client to back off and retry: allow a
      // few more tries than the SDK's three before an upload or download fails.
      maxAttempts: 6,
    });
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix;
  }

  /** Fails with the service's own message when the bucket is unreachable or the keys are refused. */
  async checkReachable(): Promise<void> {
    await this.client.send(
      new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, MaxKeys: 1 }),
    );
  }

  close(): void {
    this.client.destroy();
  }

  async put(bytes: Uint8Array): Promise<StoredBlob> {
    const { head: _head, ...blob } = await this.write([bytes]);
    return blob;
  }

  /**
   * One PUT when the bytes fit in a segment, else a multipart upload: either way the object appears only
   * once complete. A failed multipart upload is aborted here, or by removeStaleStaging after a crash.
   */
  async write(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { headBytes?: number } = {},
  ): Promise<StoredBlob & { head: Buffer }> {
    const key = newBlobKey();
    const objectKey = this.blobKey(key);
    const headBytes = options.headBytes ?? 0;
    const hash = createHash('md5');
    const heads: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    let multipartId: string | undefined;
    const parts: CompletedPart[] = [];
    let creating: Promise<string | undefined> | undefined;
    const sendPart = async (body: Buffer, offset: number): Promise<void> => {
      // Parts may be sent side by side: the first one to need the multipart upload creates it for all.
      creating ??= this.client
        .send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: objectKey }))
        .then((created) => created.UploadId);
      multipartId = await creating;
      // Every part but the last is exactly one segment, so a part's number follows from its offset.
      const PartNumber = offset / SEGMENT_BYTES + 1;
      const { ETag } = await this.client.send(
        new UploadPartCommand({
          Bucket: this.bucket,
          Key: objectKey,
          UploadId: multipartId,
          PartNumber,
          Body: body,
          ContentLength: body.length,
        }),
      );
      parts.push({ PartNumber, ETag });
    };
    const segments = new SegmentPipeline(sendPart);
    try {
      for await (const chunk of source) {
        if (chunk.byteLength === 0) continue;
        if (headLength < headBytes) {
          const take = Buffer.from(chunk.subarray(0, headBytes - headLength));
          heads.push(take);
          headLength += take.length;
        }
        hash.update(chunk);
        size += chunk.byteLength;
        await segments.add(chunk);
      }
      const last = segments.takeRest();
      await segments.drain();
      if (creating === undefined) {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: objectKey,
            Body: last,
            ContentLength: last.length,
          }),
        );
      } else {
        if (last.length > 0) await sendPart(last, size - last.length);
        parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
        await this.client.send(
          new CompleteMultipartUploadCommand({
            Bucket: this.bucket,
            Key: objectKey,
            UploadId: multipartId,
            MultipartUpload: { Parts: parts },
          }),
        );
      }
    } catch (error) {
      await segments.settle();
      if (multipartId !== undefined) {
        await this.client
          .send(
            new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: objectKey, UploadId: multipartId }),
          )
          .catch(() => undefined);
      }
      throw error;
    }
    return { key, size, md5Base64: hash.digest('base64'), head: Buffer.concat(heads) };
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    const out = new PassThrough();
    this.getStream(this.blobKey(key), range).then(
      (body) => {
        body.on('error', (error) => out.destroy(error));
        body.pipe(out);
        // A reader that goes away (a dropped download) must release the S3 connection too.
        out.on('close', () => body.destroy());
      },
      (error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return out;
  }

  async delete(key: string): Promise<void> {
    await this.deleteKey(this.blobKey(key));
  }

  async createPart(uploadId: string): Promise<void> {
    const Key = `${this.uploadPrefix(uploadId)}${SESSION_MARKER}`;
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: '', ContentLength: 0 }));
  }

  /**
   * Stores the source as segments starting at `position`, each durable in S3 before it counts. Segments
   * starting at or after `position` are dropped first (bytes never counted as received); one starting
   * before it and reaching past it is cut at read time by the segment that follows it (`segmentsOf`).
   */
  async writePart(uploadId: string, position: number, source: AsyncIterable<Uint8Array>): Promise<PartWrite> {
    const stale = (await this.listSegments(uploadId)).filter((segment) => segment.start >= position);
    await this.deleteKeys(stale.map((segment) => segment.key));
    const segments = new SegmentPipeline(async (body, offset) => {
      const Key = this.segmentKey(uploadId, position + offset);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length }),
      );
    });
    let sourceError: unknown;
    try {
      try {
        for await (const chunk of source) {
          if (chunk.byteLength > 0) await segments.add(chunk);
        }
      } catch (error) {
        if (segments.failed) throw error;
        sourceError = error;
      }
      // What arrived before a dropped connection still counts, as on disk.
      const last = segments.takeRest();
      if (last.length > 0) await segments.add(last, true);
      await segments.drain();
    } catch (error) {
      await segments.settle();
      return { written: segments.stored(), error };
    }
    const written = segments.stored();
    return sourceError === undefined ? { written } : { written, error: sourceError };
  }

  async readPartHead(uploadId: string, length: number): Promise<Buffer> {
    const pieces: Buffer[] = [];
    let total = 0;
    for await (const chunk of this.readSegments(uploadId, length, true)) {
      pieces.push(chunk);
      total += chunk.length;
    }
    return Buffer.concat(pieces, total);
  }

  /**
   * Copies the segments' first `size` bytes into a new blob, hashing them on the way: the MD5 of the
   * whole file comes out right whichever instances received the chunks. Segments stay until `deletePart`.
   */
  async commitPart(uploadId: string, size: number): Promise<StoredBlob> {
    const { head: _head, ...blob } = await this.write(this.readSegments(uploadId, size, false));
    if (blob.size !== size) throw new Error(`upload ${uploadId}: ${blob.size} of ${size} bytes stored`);
    return blob;
  }

  async deletePart(uploadId: string): Promise<void> {
    const keys: string[] = [];
    for await (const object of this.listObjects(this.uploadPrefix(uploadId))) keys.push(object.key);
    await this.deleteKeys(keys);
  }

  async *listBlobs(): AsyncIterable<StoredEntry> {
    const prefix = `${this.prefix}blobs/`;
    for await (const object of this.listObjects(prefix)) {
      const id = object.key.slice(prefix.length);
      if (BLOB_KEY.test(id)) yield { id, changedAt: object.changedAt };
    }
  }

  async *listParts(): AsyncIterable<StoredEntry> {
    const prefix = `${this.prefix}uploads/`;
    let current: StoredEntry | undefined;
    // Keys come sorted, so one upload's objects are consecutive.
    for await (const object of this.listObjects(prefix)) {
      const id = object.key.slice(prefix.length).split('/')[0] ?? '';
      if (!UPLOAD_ID_PATTERN.test(id)) continue;
      if (current?.id === id) {
        current.changedAt = Math.max(current.changedAt, object.changedAt);
        continue;
      }
      if (current) yield current;
      current = { id, changedAt: object.changedAt };
    }
    if (current) yield current;
  }

  /** Aborts the multipart uploads of blob writes that never finished (a crash mid-write). */
  async removeStaleStaging(before: number): Promise<number> {
    let removed = 0;
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: `${this.prefix}blobs/`,
          KeyMarker,
          UploadIdMarker,
        }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || (upload.Initiated?.getTime() ?? 0) >= before) continue;
        await this.client.send(
          new AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
        removed += 1;
      }
      if (!page.IsTruncated) return removed;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /**
   * The first `size` bytes of an upload, read back from its segments in order. `upTo`: stop early when
   * there are fewer (a head read); otherwise missing bytes are an error.
   */
  private async *readSegments(uploadId: string, size: number, upTo: boolean): AsyncIterable<Buffer> {
    let cursor = 0;
    for (const segment of segmentsOf(await this.listSegments(uploadId))) {
      if (cursor >= size) break;
      if (segment.start !== cursor) break;
      const take = Math.min(segment.usable, size - cursor);
      if (take <= 0) continue;
      for await (const chunk of await this.getStream(segment.key, { start: 0, end: take - 1 })) {
        yield chunk as Buffer;
      }
      cursor += take;
    }
    if (cursor < size && !upTo) throw new Error(`upload ${uploadId}: bytes ${cursor}..${size} are missing`);
  }

  private async listSegments(uploadId: string): Promise<Segment[]> {
    const prefix = this.uploadPrefix(uploadId);
    const segments: Segment[] = [];
    for await (const object of this.listObjects(prefix)) {
      const name = object.key.slice(prefix.length);
      if (!/^\d+$/.test(name)) continue;
      segments.push({ key: object.key, start: Number(name), size: object.size });
    }
    return segments;
  }

  private async *listObjects(
    Prefix: string,
  ): AsyncIterable<{ key: string; size: number; changedAt: number }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key, size: object.Size ?? 0, changedAt: object.LastModified?.getTime() ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  private async getStream(Key: string, range?: { start: number; end: number }): Promise<Readable> {
    const { Body } = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key,
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    if (!(Body instanceof Readable)) throw new Error(`S3 returned no body for ${Key}`);
    return Body;
  }

  private async deleteKey(Key: string): Promise<void> {
    // Deleting a missing key succeeds in S3, like `rm --force`.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
  }

  /** One request per key (multi-object delete needs a Content-MD5 some services and SDKs disagree on). */
  private async deleteKeys(keys: string[]): Promise<void> {
    for (let index = 0; index < keys.length; index += DELETE_CONCURRENCY) {
      await Promise.all(keys.slice(index, index + DELETE_CONCURRENCY).map((key) => this.deleteKey(key)));
    }
  }

  private blobKey(key: string): string {
    if (!BLOB_KEY.test(key)) throw new Error('Invalid blob key');
    return `${this.prefix}blobs/${key}`;
  }

  private uploadPrefix(uploadId: string): string {
    if (!UPLOAD_ID_PATTERN.test(uploadId)) throw new Error('Invalid upload id');
    return `${this.prefix}uploads/${uploadId}/`;
  }

  private segmentKey(uploadId: string, offset: number): string {
    return `${this.uploadPrefix(uploadId)}${String(offset).padStart(OFFSET_DIGITS, '0')}`;
  }
}

const newBlobKey = (): string => randomBytes(16).toString('hex');

interface Segment {
  key: string;
  start: number;
  size: number;
}

/**
 * Segments in offset order, each with the bytes of it that count: up to where the next one starts (a
 * later write at a lower offset supersedes the tail of the one before it).
 */
function segmentsOf(segments: Segment[]): Array<Segment & { usable: number }> {
  const sorted = [...segments].sort((a, b) => a.start - b.start);
  return sorted.map((segment, index) => {
    const next = sorted[index + 1];
    const usable = next ? Math.min(segment.size, next.start - segment.start) : segment.size;
    return { ...segment, usable };
  });
}

/** Segments sent side by side: S3 answers each PUT after a fixed delay, so one at a time wastes the link. */
const SEGMENTS_IN_FLIGHT = 3;

/**
 * Cuts a stream of chunks into SEGMENT_BYTES pieces and sends each with `send` (given its offset in the
 * stream), up to SEGMENTS_IN_FLIGHT at once while the next fills: memory stays at a few segments.
 */
class SegmentPipeline {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private cutBytes = 0;
  private readonly inFlight = new Set<Promise<void>>();
  /** Every segment handed to `send`, in order, and whether S3 has confirmed it. */
  private readonly segments: Array<{ length: number; done: boolean }> = [];
  private sendError: unknown;
  failed = false;

  constructor(private readonly send: (body: Buffer, offset: number) => Promise<void>) {}

  async add(chunk: Uint8Array, flush = false): Promise<void> {
    this.pending.push(chunk);
    this.pendingBytes += chunk.byteLength;
    while (this.pendingBytes >= SEGMENT_BYTES || (flush && this.pendingBytes > 0)) {
      const all = Buffer.concat(this.pending, this.pendingBytes);
      const body = all.subarray(0, Math.min(SEGMENT_BYTES, all.length));
      const rest = all.subarray(body.length);
      this.pending = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
      while (this.inFlight.size >= SEGMENTS_IN_FLIGHT) await Promise.race(this.inFlight);
      if (this.failed) throw this.sendError;
      const segment = { length: body.length, done: false };
      this.segments.push(segment);
      const sending = this.send(body, this.cutBytes).then(
        () => {
          segment.done = true;
        },
        (error: unknown) => {
          this.failed = true;
          this.sendError = error;
        },
      );
      this.cutBytes += body.length;
      this.inFlight.add(sending);
      void sending.finally(() => this.inFlight.delete(sending));
    }
  }

  /** The bytes not yet sent (less than a segment), taken out of the pipeline. */
  takeRest(): Buffer {
    const rest = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return rest;
  }

  /** Waits for every send in flight; throws the first error. */
  async drain(): Promise<void> {
    await this.settle();
    if (this.failed) throw this.sendError;
  }

  /** Waits for every send in flight, whatever its outcome. */
  async settle(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  /** Bytes confirmed stored without a gap from the start (a later segment may land before an earlier fails). */
  stored(): number {
    let bytes = 0;
    for (const segment of this.segments) {
      if (!segment.done) break;
      bytes += segment.length;
    }
    return bytes;
  }
}

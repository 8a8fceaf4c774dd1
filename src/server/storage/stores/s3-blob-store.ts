/**
 * Object bytes in an S3-compatible service (docs/decisions/022-s3-storage.md, 032-upload-throughput.md).
 * Loaded only when STORAGE_DRIVER=s3 (create-blob-store.ts imports it dynamically): the SDK is heavy and a
 * disk install never needs it.
 *
 * Layout under the key prefix: `blobs/<key>` for finished blobs, and `uploads/<uploadId>/…` for the bytes
 * of a resumable upload, named and read as uploads/s3-upload-session.ts describes.
 */

import { UPLOAD_ID_PATTERN } from '../../../common';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import type { S3StorageConfig } from '../../config/config';
import { PassingBytes } from './passing-bytes';
import { PassThrough, Readable } from 'node:stream';
import type { BlobStore, PartWrite, StoredBlob, StoredEntry } from './blob-store';
import { ReadAhead } from '../../core/byte-streams';
import { RecentMap } from './recent-map';
import { createMd5 } from './md5';
import {
  chainOf,
  entryOf,
  MAX_TRACKED_UPLOADS,
  MIN_PART_BYTES,
  partMarkerName,
  partNumberAt,
  segmentName,
  segmentRanges,
  SESSION_MARKER,
  unreadable,
  UploadHashes,
  type Entry,
  type UploadSession,
} from '../uploads/s3-upload-session';

/**
 * Bytes sent in one request: the size of a multipart part and of a resumable upload's segment. At least
 * S3's 5 MiB part minimum; memory per write in flight is about two of them (one sending, one filling).
 */
const SEGMENT_BYTES = 8 * 1024 * 1024;
/** What a chunk write reads ahead of its parts: the SDK's largest chunk (docs/storage-protocol.md#62-chunk-sizes). */
const READ_AHEAD_BYTES = 2 * SEGMENT_BYTES;
const BLOB_KEY = /^[0-9a-f]{32}$/;
const DELETE_CONCURRENCY = 8;

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** Session markers never change once written: read once per instance. */
  private readonly sessions = new RecentMap<UploadSession>(MAX_TRACKED_UPLOADS);
  private readonly partHashes = new UploadHashes();

  constructor(options: S3StorageConfig) {
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
    const bytes = new PassingBytes(options.headBytes);
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
        bytes.see(chunk);
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
        if (last.length > 0) await sendPart(last, bytes.size - last.length);
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
    return bytes.result(key);
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

  /**
   * Starts the multipart upload the session's bytes go into as they arrive, and records it (with the
   * blob key it completes into) in the session marker, where any instance finds it.
   */
  async createPart(uploadId: string): Promise<void> {
    const blobKey = newBlobKey();
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.blobKey(blobKey) }),
    );
    if (!created.UploadId) throw new Error('S3 started no multipart upload');
    const session: UploadSession = { blobKey, multipartId: created.UploadId };
    const Body = JSON.stringify(session);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.sessionKey(uploadId),
        Body,
        ContentLength: Buffer.byteLength(Body),
      }),
    );
    this.sessions.set(uploadId, session);
  }

  /**
   * Stores the source from `position`, each piece durable in S3 before it counts. Entries starting at
   * or after `position` are dropped first (bytes never counted as received). Bytes become multipart
   * parts (8 MiB, the last of a write at least 5 MiB) as soon as there are enough since the last part:
   * the small segments a write starts after (the first chunks of an upload are small) are read back
   * once and sent in the part. A write's last piece under 5 MiB is stored as a segment.
   */
  async writePart(uploadId: string, position: number, source: AsyncIterable<Uint8Array>): Promise<PartWrite> {
    // The chunk keeps arriving while the upload's entries are listed (a round trip to S3 per chunk): up
    // to the SDK's largest chunk, so that when the list is slow both its parts can go as soon as it ends.
    const body = new ReadAhead(source, READ_AHEAD_BYTES);
    let session: UploadSession | undefined;
    let entries: Entry[];
    try {
      session = await this.sessionOf(uploadId);
      entries = await this.listEntries(uploadId);
      await this.deleteKeys(entries.filter((entry) => entry.start >= position).map((entry) => entry.key));
    } catch (error) {
      await body.stop();
      throw error;
    }
    const kept = entries.filter((entry) => entry.start < position);
    const chain = chainOf(kept, position);
    if (chain.end < position)
      throw new Error(`upload ${uploadId}: bytes ${chain.end}..${position} are missing`);
    // A segment may reach past `position` (bytes never counted; the new entries cut it), a part may not.
    if (chain.end > position && chain.items.at(-1)?.kind === 'part') {
      throw new Error(`upload ${uploadId}: a part reaches past ${position}`);
    }
    // Bytes after the last part (segments) go into the next part, read back only if one is made.
    const tailStart = session ? chain.tailStart : position;
    const tracked = this.partHashes.take(uploadId, position, kept);
    const hash = position === 0 ? createMd5() : tracked;
    const created: string[] = [];

    const sendPart = async (bytes: Buffer, start: number): Promise<void> => {
      if (!session) throw new Error('no multipart upload');
      const end = start + bytes.length;
      const Key = this.partMarkerKey(uploadId, start, end);
      const storePart = () =>
        this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: this.blobKey(session.blobKey),
            UploadId: session.multipartId,
            PartNumber: partNumberAt(start),
            Body: bytes,
            ContentLength: bytes.length,
          }),
        );
      const storeMarker = () =>
        this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: '', ContentLength: 0 }));
      if (start >= position) {
        // Side by side: until this write is counted, a marker at or after `position` is dropped by the
        // next write (which starts there) and checked against the part's size at finalize, so one stored
        // before its part never counts alone.
        // Both settle before the write may end: a marker landing after the next write's delete would stay.
        const [part, marker] = await Promise.allSettled([storePart(), storeMarker()]);
        if (part.status === 'rejected') throw part.reason;
        if (marker.status === 'rejected') throw marker.reason;
      } else {
        // A part that takes in counted segments must exist before a marker hides those segments.
        await storePart();
        await storeMarker();
      }
      created.push(Key);
    };
    const sendSegment = async (bytes: Buffer, start: number): Promise<void> => {
      const Key = this.segmentKey(uploadId, start);
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: bytes, ContentLength: bytes.length }),
      );
      created.push(Key);
    };
    // Offsets in the pipeline count from tailStart once the tail is in it, else from position.
    let base = position;
    const segments = new SegmentPipeline((body, offset) =>
      session ? sendPart(body, base + offset) : sendSegment(body, base + offset),
    );
    let waiting: Uint8Array[] = [];
    let waitingBytes = 0;
    let tailAdded = tailStart === position;
    const addTail = async (): Promise<void> => {
      if (tailAdded) return;
      tailAdded = true;
      base = tailStart;
      await segments.add(await this.readSegments(chain.items, tailStart, position));
      for (const piece of waiting) await segments.add(piece);
      waiting = [];
    };

    let sourceError: unknown;
    let written: number;
    try {
      try {
        for await (const chunk of body) {
          if (chunk.byteLength === 0) continue;
          hash?.update([chunk]);
          if (tailAdded) {
            await segments.add(chunk);
            continue;
          }
          waiting.push(chunk);
          waitingBytes += chunk.byteLength;
          if (position - tailStart + waitingBytes >= SEGMENT_BYTES) await addTail();
        }
      } catch (error) {
        if (segments.failed) throw error;
        sourceError = error;
      }
      // What arrived before a dropped connection still counts, as on disk.
      if (!tailAdded && session && position - tailStart + waitingBytes >= MIN_PART_BYTES) await addTail();
      const rest = tailAdded ? segments.takeRest() : Buffer.concat(waiting, waitingBytes);
      await segments.drain();
      // The tail is under 5 MiB and goes in only with enough bytes for a part: `rest` starts after it.
      const restStart = tailAdded ? base + segments.sentBytes() : position;
      if (rest.length >= MIN_PART_BYTES && session) await sendPart(rest, restStart);
      else if (rest.length > 0) await sendSegment(rest, restStart);
      written = restStart + rest.length - position;
    } catch (error) {
      await segments.settle();
      return { written: Math.max(0, base + segments.stored() - position), error };
    }
    // A hash that failed is not kept: finalize then reads the object back instead.
    if (hash && (await hash.settled())) {
      const prefixLength = this.uploadPrefix(uploadId).length;
      const after = [...kept, ...created.map((key) => entryOf(key.slice(prefixLength), key, 0))];
      this.partHashes.set(uploadId, position + written, hash, after);
    }
    return sourceError === undefined ? { written } : { written, error: sourceError };
  }

  async readPartHead(uploadId: string, length: number): Promise<Buffer> {
    const chain = chainOf(await this.listEntries(uploadId), Number.MAX_SAFE_INTEGER);
    const pieces: Buffer[] = [];
    let total = 0;
    // Only segments can be read back; a part is readable once the upload is completed.
    for await (const piece of this.readChain(chain.items, 0, length, true)) {
      pieces.push(piece);
      total += piece.length;
    }
    return Buffer.concat(pieces, total);
  }

  /**
   * Completes the multipart upload into the session's blob: the last bytes (segments under 5 MiB) are
   * sent as its last part first. The MD5 is the one kept while the chunks arrived on this instance;
   * when chunks reached other instances too (or this one restarted), the blob is read back once for it.
   * An upload with no part at all (under 5 MiB, or started before parts existed) is copied from its
   * segments into a new blob, hashed on the way. Entries stay until `deletePart`.
   */
  async commitPart(uploadId: string, size: number): Promise<StoredBlob> {
    const session = await this.sessionOf(uploadId);
    const entries = await this.listEntries(uploadId);
    const chain = chainOf(entries, size);
    const parts = chain.items.filter((item) => item.kind === 'part');
    if (!session || parts.length === 0) {
      if (session) await this.abortMultipart(session);
      const { head: _head, ...blob } = await this.write(this.readChain(chain.items, 0, size));
      if (blob.size !== size) throw new Error(`upload ${uploadId}: ${blob.size} of ${size} bytes stored`);
      return blob;
    }
    if (chain.end < size) throw new Error(`upload ${uploadId}: bytes ${chain.end}..${size} are missing`);
    const lastPart = parts.at(-1);
    if (!lastPart || lastPart.end > size) throw new Error(`upload ${uploadId}: a part reaches past ${size}`);
    const hash = this.partHashes.copyAt(
      uploadId,
      size,
      entries.filter((entry) => entry.start < size),
    );
    const objectKey = this.blobKey(session.blobKey);
    try {
      if (chain.tailStart < size) {
        const body = await this.readSegments(chain.items, chain.tailStart, size);
        await this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key: objectKey,
            UploadId: session.multipartId,
            PartNumber: partNumberAt(chain.tailStart),
            Body: body,
            ContentLength: body.length,
          }),
        );
        parts.push({ kind: 'part', key: '', start: chain.tailStart, end: size });
      }
      const etags = await this.partEtags(session);
      const completed: CompletedPart[] = parts.map((part) => {
        const PartNumber = partNumberAt(part.start);
        const stored = etags.get(PartNumber);
        if (stored?.size !== part.end - part.start) {
          throw new Error(
            `upload ${uploadId}: part ${PartNumber} is not the bytes ${part.start}..${part.end}`,
          );
        }
        return { PartNumber, ETag: stored.etag };
      });
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: objectKey,
          UploadId: session.multipartId,
          MultipartUpload: { Parts: completed },
        }),
      );
    } catch (error) {
      // Completed by an earlier finalize that failed afterwards (or by another instance): that blob.
      if ((error as Error).name === 'NoSuchUpload') return this.completedBlob(session, size);
      throw error;
    }
    const md5Base64 = hash ? await hash.digestBase64() : await this.md5Of(objectKey);
    return { key: session.blobKey, size, md5Base64 };
  }

  async deletePart(uploadId: string): Promise<void> {
    this.partHashes.delete(uploadId);
    const session = await this.sessionOf(uploadId).catch(() => undefined);
    if (session) await this.abortMultipart(session);
    this.sessions.delete(uploadId);
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
   * Bytes `from`..`to` of an upload from its chain of entries, read back from segments. `upTo`: stop at
   * the first bytes that cannot be read (missing, or in a part: a head read); otherwise that is an error.
   */
  private async *readChain(items: Entry[], from: number, to: number, upTo = false): AsyncIterable<Buffer> {
    const { pieces, readableTo } = segmentRanges(items, from, to);
    if (readableTo < to && !upTo) throw unreadable(readableTo, to);
    for (const { key, range } of pieces) {
      for await (const chunk of await this.getStream(key, range)) yield chunk as Buffer;
    }
  }

  /**
   * Bytes `from`..`to` of an upload, all in segments (less than a part), read side by side: the first
   * part of an upload takes in the four small first chunks, and one GET after another would wait four
   * round trips.
   */
  private async readSegments(items: Entry[], from: number, to: number): Promise<Buffer> {
    const { pieces, readableTo } = segmentRanges(items, from, to);
    if (readableTo < to) throw unreadable(readableTo, to);
    return Buffer.concat(
      await Promise.all(pieces.map(({ key, range }) => this.getStream(key, range).then(readAll))),
    );
  }

  /** The segments and part markers of an upload. */
  private async listEntries(uploadId: string): Promise<Entry[]> {
    const prefix = this.uploadPrefix(uploadId);
    const entries: Entry[] = [];
    for await (const object of this.listObjects(prefix)) {
      const entry = entryOf(object.key.slice(prefix.length), object.key, object.size);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  /** The session's multipart upload; undefined for a session started before parts (segments only). */
  private async sessionOf(uploadId: string): Promise<UploadSession | undefined> {
    const known = this.sessions.get(uploadId);
    if (known) return known;
    let text: string;
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.sessionKey(uploadId) }),
      );
      text = (await Body?.transformToString()) ?? '';
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
    if (text === '') return undefined;
    const session = JSON.parse(text) as UploadSession;
    if (!BLOB_KEY.test(session.blobKey) || typeof session.multipartId !== 'string') {
      throw new Error(`upload ${uploadId}: unreadable session marker`);
    }
    this.sessions.set(uploadId, session);
    return session;
  }

  /** ETag and size of every part S3 holds for the session's multipart upload, by part number. */
  private async partEtags(session: UploadSession): Promise<Map<number, { etag: string; size: number }>> {
    const parts = new Map<number, { etag: string; size: number }>();
    let PartNumberMarker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListPartsCommand({
          Bucket: this.bucket,
          Key: this.blobKey(session.blobKey),
          UploadId: session.multipartId,
          PartNumberMarker,
        }),
      );
      for (const part of page.Parts ?? []) {
        if (part.PartNumber && part.ETag)
          parts.set(part.PartNumber, { etag: part.ETag, size: part.Size ?? 0 });
      }
      if (!page.IsTruncated) return parts;
      PartNumberMarker = page.NextPartNumberMarker;
    }
  }

  /** The blob a finalize completed before (it failed later, e.g. the quota, and is retried). */
  private async completedBlob(session: UploadSession, size: number): Promise<StoredBlob> {
    const objectKey = this.blobKey(session.blobKey);
    const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    if (head.ContentLength !== size)
      throw new Error(`blob ${session.blobKey} is not the upload's ${size} bytes`);
    return { key: session.blobKey, size, md5Base64: await this.md5Of(objectKey) };
  }

  private async md5Of(objectKey: string): Promise<string> {
    const hash = createHash('md5');
    for await (const chunk of await this.getStream(objectKey)) hash.update(chunk as Buffer);
    return hash.digest('base64');
  }

  private async abortMultipart(session: UploadSession): Promise<void> {
    await this.client
      .send(
        new AbortMultipartUploadCommand({
          Bucket: this.bucket,
          Key: this.blobKey(session.blobKey),
          UploadId: session.multipartId,
        }),
      )
      .catch(() => undefined);
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
    return `${this.uploadPrefix(uploadId)}${segmentName(offset)}`;
  }

  private partMarkerKey(uploadId: string, start: number, end: number): string {
    return `${this.uploadPrefix(uploadId)}${partMarkerName(start, end)}`;
  }

  private sessionKey(uploadId: string): string {
    return `${this.uploadPrefix(uploadId)}${SESSION_MARKER}`;
  }
}

const newBlobKey = (): string => randomBytes(16).toString('hex');

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

  /** Bytes handed to `send` so far. */
  sentBytes(): number {
    return this.cutBytes;
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

async function readAll(stream: Readable): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

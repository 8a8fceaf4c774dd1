/**
 * A streaming reader for the storage protocol's multipart upload body (docs/storage-protocol.md#47-multipart-upload):
 * `multipart/related` with exactly two parts, JSON metadata then the file. The metadata is read into
 * memory (it is small); the file is handed on as a stream, so an upload of any size never sits in memory.
 */
export class MultipartError extends Error {}

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');
const PREAMBLE_MAX_BYTES = 1024;
const HEADERS_MAX_BYTES = 16 * 1024;

export interface MultipartUpload {
  metadata: Buffer;
  /** The file part's own Content-Type header, if it had one. */
  fileContentType: string | undefined;
  /** The file's bytes. Throws MultipartError at the end if the body does not close after this part. */
  file: AsyncGenerator<Buffer>;
}

/** The boundary of a `multipart/related` Content-Type, or null when the header is not one. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\/related\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

export async function readMultipartRelated(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
  metadataMaxBytes: number,
): Promise<MultipartUpload> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  const dashBoundary = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);

  // Anything before the first boundary is a preamble, which MIME says to ignore.
  await reader.readUntil(dashBoundary, PREAMBLE_MAX_BYTES);
  await startPart(reader);
  await reader.readHeaders();
  const metadata = await reader.readUntil(delimiter, metadataMaxBytes);
  await startPart(reader);
  const fileHeaders = await reader.readHeaders();

  async function* file(): AsyncGenerator<Buffer> {
    yield* reader.streamUntil(delimiter);
    if (!(await reader.startsWith(Buffer.from('--')))) {
      throw new MultipartError('Unexpected number of parts in request body');
    }
    await reader.drain();
  }
  return { metadata, fileContentType: headerValue(fileHeaders, 'content-type'), file: file() };
}

/** After a boundary: `--` closes the body (too early here); otherwise the rest of the line is padding. */
async function startPart(reader: ByteReader): Promise<void> {
  if (await reader.startsWith(Buffer.from('--'))) {
    throw new MultipartError('Unexpected number of parts in request body');
  }
  await reader.readUntil(CRLF, 256);
}

function headerValue(headers: string, name: string): string | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}

class ByteReader {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  /** Pulls one more chunk; false at the end of the body. */
  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.source.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return true;
  }

  async startsWith(bytes: Buffer): Promise<boolean> {
    while (this.buffer.length < bytes.length) {
      if (!(await this.fill())) return false;
    }
    return this.buffer.subarray(0, bytes.length).equals(bytes);
  }

  /** The bytes before `needle` (consumed with it); MultipartError past `maxBytes` or at the end. */
  async readUntil(needle: Buffer, maxBytes: number): Promise<Buffer> {
    let searchFrom = 0;
    for (;;) {
      const index = this.buffer.indexOf(needle, searchFrom);
      if (index >= 0) {
        if (index > maxBytes) break;
        const before = this.buffer.subarray(0, index);
        this.buffer = this.buffer.subarray(index + needle.length);
        return before;
      }
      if (this.buffer.length > maxBytes + needle.length) break;
      searchFrom = Math.max(0, this.buffer.length - needle.length + 1);
      if (!(await this.fill())) throw new MultipartError('Unexpected end of the multipart body');
    }
    throw new MultipartError('A part of the multipart body is too large');
  }

  /** A part's header block as text; empty when the part starts straight with its blank line. */
  async readHeaders(): Promise<string> {
    if (await this.startsWith(CRLF)) {
      this.buffer = this.buffer.subarray(CRLF.length);
      return '';
    }
    return (await this.readUntil(HEADERS_END, HEADERS_MAX_BYTES)).toString('latin1');
  }

  /** Yields everything before `needle` as it arrives, holding back only what could be its start. */
  async *streamUntil(needle: Buffer): AsyncGenerator<Buffer> {
    for (;;) {
      const index = this.buffer.indexOf(needle);
      if (index >= 0) {
        if (index > 0) yield this.buffer.subarray(0, index);
        this.buffer = this.buffer.subarray(index + needle.length);
        return;
      }
      const safe = this.buffer.length - (needle.length - 1);
      if (safe > 0) {
        const out = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        yield out;
      }
      if (!(await this.fill())) throw new MultipartError('Unexpected end of the multipart body');
    }
  }

  /** Reads and drops the rest (the epilogue). */
  async drain(): Promise<void> {
    this.buffer = Buffer.alloc(0);
    while (await this.fill()) this.buffer = Buffer.alloc(0);
  }
}

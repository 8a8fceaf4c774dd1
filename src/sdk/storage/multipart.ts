import type { BodyPart } from './upload-data';

/** Two `Math.random()` digit strings, as firebase/storage makes them (30–34 digits). */
export function makeBoundary(random: () => number = Math.random): string {
  let boundary = '';
  for (let i = 0; i < 2; i += 1) boundary += random().toString().slice(2);
  return boundary;
}

/**
 * The multipart/related body of docs/storage-protocol.md#47-multipart-upload, byte for byte: a JSON part, a file part, and
 * no CRLF after the closing delimiter. A Blob, so large files are not copied into one buffer.
 */
export function multipartBody(
  boundary: string,
  metadataJson: string,
  contentType: string,
  bytes: BodyPart,
): Blob {
  const head =
    `--${boundary}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n\r\n' +
    `${metadataJson}\r\n` +
    `--${boundary}\r\n` +
    `Content-Type: ${contentType}\r\n\r\n`;
  const tail = `\r\n--${boundary}--`;
  return new Blob([head, bytes as BlobPart, tail]);
}

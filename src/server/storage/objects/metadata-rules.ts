import contentType from 'content-type';
import { storageErrorTexts } from '../../../common/storage-errors';
import type { WritableMetadata } from '../../../common';
import { storageErrors } from '../protocol/storage-errors';

/**
 * Header-bound metadata (decision 013): every field that is, or in GCS becomes, an HTTP header value is
 * checked on every write, so a stored value can always be sent back. Node refuses to send a header with a
 * line break or a character above U+00FF; a stored one used to turn every download into a 500.
 */

/** Visible ASCII and space: what every HTTP stack passes through unchanged. */
const HEADER_TEXT = /^[\x20-\x7e]*$/;
/** An HTTP token (RFC 9110, section 5.6.2): GCS sends custom metadata keys as `x-goog-meta-<key>` headers. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Values may be any text (GCS keeps them as UTF-8), but never line breaks or control characters. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const HEADER_FIELDS = ['cacheControl', 'contentDisposition', 'contentEncoding', 'contentLanguage'] as const;

/** `type/subtype` (lower-cased) of a well-formed media type in header-safe text; undefined otherwise. */
export function mediaTypeEssence(value: string): string | undefined {
  if (!HEADER_TEXT.test(value)) return undefined;
  try {
    return contentType.parse(value).type;
  } catch {
    return undefined;
  }
}

/** 400 unless `value` is a well-formed media type; returns it unchanged. */
export function requireContentType(value: string): string {
  if (mediaTypeEssence(value) === undefined) {
    throw storageErrors.invalidArgument(storageErrorTexts.invalidContentType);
  }
  return value;
}

/** 400 with the field's name for the first header-bound value that could not be sent back as a header. */
export function requireHeaderSafeMetadata(write: WritableMetadata): void {
  if (typeof write.contentType === 'string') requireContentType(write.contentType);
  for (const field of HEADER_FIELDS) {
    const value = write[field];
    if (typeof value === 'string' && !HEADER_TEXT.test(value)) {
      throw storageErrors.invalidArgument(storageErrorTexts.invalidHeaderField(field));
    }
  }
  for (const [key, value] of Object.entries(write.metadata ?? {})) {
    if (!TOKEN.test(key)) throw storageErrors.invalidArgument(storageErrorTexts.invalidCustomMetadataKey);
    if (typeof value === 'string' && CONTROL.test(value)) {
      throw storageErrors.invalidArgument(storageErrorTexts.invalidCustomMetadataValue(key));
    }
  }
}

import { IMAGE_SNIFF_BYTES, sniffRasterImage, THUMBNAIL_MAX_BYTES } from '../../common';

/** A provider's picture that takes longer than this is not waited for: the account gets a generated one. */
const PICTURE_TIMEOUT_MS = 5_000;

/**
 * The bytes of the provider's `picture` URL when it is an https (or this machine's http) URL answering a
 * raster image within the profile picture limit, in time; otherwise null, and the caller draws an avatar.
 * Read with a hard byte cap, so a huge or endless answer costs at most the limit.
 */
export async function fetchProviderPicture(pictureUrl: unknown): Promise<Buffer | null> {
  if (typeof pictureUrl !== 'string') return null;
  let url: URL;
  try {
    url = new URL(pictureUrl);
  } catch {
    return null;
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return null;
  try {
    const response = await fetch(url, {
      redirect: 'follow',
      signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS),
    });
    if (!response.ok || !response.body) return null;
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > THUMBNAIL_MAX_BYTES) {
      await response.body.cancel();
      return null;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > THUMBNAIL_MAX_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(value);
    }
    const bytes = Buffer.concat(chunks);
    return bytes.length > 0 && sniffRasterImage(bytes.subarray(0, IMAGE_SNIFF_BYTES)) ? bytes : null;
  } catch {
    return null;
  }
}

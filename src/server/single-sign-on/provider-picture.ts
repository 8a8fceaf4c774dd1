import { IMAGE_SNIFF_BYTES, sniffRasterImage, THUMBNAIL_MAX_BYTES } from '../../common';
import { outboundRequest } from '../core/outbound-http';

/** A provider's picture that takes longer than this is not waited for: the account gets a generated one. */
const PICTURE_TIMEOUT_MS = 5_000;

/**
 * The bytes of the provider's `picture` URL when it answers a raster image within the profile picture
 * limit, in time; otherwise null, and the caller draws an avatar. The URL is the provider's word (often
 * something its user may edit), so it is fetched as any URL someone else chose: no private address unless
 * the operator allows it, no redirect followed, a hard byte cap.
 */
export async function fetchProviderPicture(
  pictureUrl: unknown,
  allowPrivate: boolean,
): Promise<Buffer | null> {
  if (typeof pictureUrl !== 'string') return null;
  let url: URL;
  try {
    url = new URL(pictureUrl);
  } catch {
    return null;
  }
  try {
    const answer = await outboundRequest(url, {
      timeoutMs: PICTURE_TIMEOUT_MS,
      maxBytes: THUMBNAIL_MAX_BYTES,
      allowPrivate,
    });
    if (answer.status !== 200 || answer.tooLarge || answer.body.length === 0) return null;
    return sniffRasterImage(answer.body.subarray(0, IMAGE_SNIFF_BYTES)) ? answer.body : null;
  } catch {
    return null;
  }
}

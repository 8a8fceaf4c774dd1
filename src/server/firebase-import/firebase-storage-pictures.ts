import { IMAGE_SNIFF_BYTES, sniffRasterImage, THUMBNAIL_MAX_BYTES } from '../../common';
import { outboundRequest } from '../core/outbound-http';

/** Where Firebase Storage download URLs point, unless the operator names another origin. */
export const FIREBASE_STORAGE_ORIGIN = 'https://firebasestorage.googleapis.com';

const PICTURE_TIMEOUT_MS = 10_000;

/** `/v0/b/{bucket}/o/{object}`: a download URL of the storage protocol (docs/storage-protocol.md). */
const DOWNLOAD_PATH = /^\/v0\/b\/[^/]+\/o\/([^/]+)$/;

export type FetchedPicture = { bytes: Buffer; fileName: string } | { problem: string };

/**
 * A profile picture of the Firebase app: its `photoURL` is a download URL of the project's Storage bucket,
 * read through the storage protocol (`GET /v0/b/{bucket}/o/{path}?alt=media`, with the download token the
 * URL carries). Only URLs at `storageOrigin` are fetched: a `photoURL` is its user's word, and the importer
 * runs inside the operator's network, so it reaches no other host. No redirect is followed; the answer must
 * be a raster image within the profile picture limit. Otherwise a problem saying why.
 */
export async function fetchStoragePicture(photoURL: string, storageOrigin: string): Promise<FetchedPicture> {
  let url: URL;
  try {
    url = new URL(photoURL);
  } catch {
    return { problem: 'its photoURL is not a URL' };
  }
  const objectPath = DOWNLOAD_PATH.exec(url.pathname)?.[1];
  if (url.origin !== storageOrigin || !objectPath) {
    return { problem: `its photoURL is not a download URL of ${storageOrigin}` };
  }
  url.searchParams.set('alt', 'media');
  try {
    const answer = await outboundRequest(url, {
      timeoutMs: PICTURE_TIMEOUT_MS,
      maxBytes: THUMBNAIL_MAX_BYTES,
      // The operator named this origin (by default Firebase's own), so a private address there is theirs.
      allowPrivate: true,
    });
    if (answer.status !== 200) return { problem: `the bucket answered ${answer.status}` };
    if (answer.tooLarge) return { problem: `larger than ${THUMBNAIL_MAX_BYTES} bytes` };
    if (!sniffRasterImage(answer.body.subarray(0, IMAGE_SNIFF_BYTES))) {
      return { problem: 'not a raster image (PNG, JPEG, GIF, WebP or BMP)' };
    }
    const fileName = decodeURIComponent(objectPath).split('/').pop() ?? 'thumbnail';
    return { bytes: answer.body, fileName };
  } catch (error) {
    return { problem: `could not be fetched (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The longest side of a thumbnail, in pixels: two list rows' height on a dense screen. */
const THUMBNAIL_SIZE = 320;

/** Images larger than this many bytes get no thumbnail: sharp would hold them whole in memory. */
export const THUMBNAIL_SOURCE_MAX_BYTES = 32 * 1024 * 1024;

/** Refuses decompression bombs: a small file that would decode to more pixels than this. */
const PIXEL_LIMIT = 50_000_000;

export const THUMBNAIL_CONTENT_TYPE = 'image/webp';

// A type-only import: erased at build, so sharp is not loaded with this module.
import type sharpFunction from 'sharp';

type Sharp = typeof sharpFunction;
let sharpModule: Promise<Sharp> | undefined;

/** sharp (and libvips) load at the first image, not at start: the idle footprint (decision 039). */
function loadSharp(): Promise<Sharp> {
  sharpModule ??= import('sharp').then((module) => module.default);
  return sharpModule;
}

/**
 * A WebP thumbnail of an image the sniffer called a raster image, or null when sharp cannot read it
 * (corrupt, too many pixels): a thumbnail is a convenience, never a condition of attaching
 * (docs/decisions/073-attachments.md). EXIF orientation is applied, metadata dropped.
 */
export async function makeThumbnail(image: Buffer): Promise<Buffer | null> {
  try {
    const sharp = await loadSharp();
    return await sharp(image, { limitInputPixels: PIXEL_LIMIT, failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
  } catch {
    return null;
  }
}

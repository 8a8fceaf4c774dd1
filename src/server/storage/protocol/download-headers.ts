import { mediaTypeEssence } from '../objects/metadata-rules';
import { RASTER_IMAGE_TYPES, STORAGE_DEFAULT_CONTENT_TYPE as DEFAULT_CONTENT_TYPE } from '../../../common';

/**
 * What a download may do in a browser (decision 013): nothing uploaded ever runs as script, style or page
 * on the app's origin. Raster images alone render inline (thumbnails in <img>); everything else is an
 * attachment. Only types a browser treats as inert data keep their type; any other type (HTML, SVG, XML,
 * JavaScript, CSS, and anything unknown) is sent as application/octet-stream, which with `nosniff` no
 * <script>, worker, stylesheet or XSLT accepts. The sandbox CSP makes a page, should one render anyway,
 * run without scripts on an opaque origin.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set(RASTER_IMAGE_TYPES);

const INERT_TYPES = new Set([
  ...INLINE_TYPES,
  DEFAULT_CONTENT_TYPE,
  'text/plain',
  'text/csv',
  'text/markdown',
  'application/json',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-tar',
  'application/x-7z-compressed',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.presentation',
]);
const INERT_FAMILIES = ['audio/', 'video/', 'font/'];

const isInert = (essence: string): boolean =>
  INERT_TYPES.has(essence) || INERT_FAMILIES.some((family) => essence.startsWith(family));

const DOWNLOAD_CSP = "sandbox; default-src 'none'";

/** The headers that decide how a browser treats a download of an object stored as `storedType`. */
export function downloadHeaders(storedType: string, name: string): Record<string, string> {
  const essence = mediaTypeEssence(storedType);
  const inline = essence !== undefined && INLINE_TYPES.has(essence);
  const fileName = encodeURIComponent(name.split('/').pop() ?? '');
  return {
    'content-type': essence !== undefined && isInert(essence) ? storedType : DEFAULT_CONTENT_TYPE,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=utf-8''${fileName}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': DOWNLOAD_CSP,
  };
}

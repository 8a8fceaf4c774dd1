import { sniffRasterImage } from '../../common';
import type { AttachmentKind } from '../../common/attachments';

/** How many leading bytes the sniffer reads of a stored attachment. */
export const CONTENT_SNIFF_BYTES = 8192;

export interface SniffedContent {
  contentType: string;
  kind: AttachmentKind;
}

const OCTET_STREAM = 'application/octet-stream';

/**
 * Markers of content a browser would run or render as a document (HTML, SVG, XML, XSLT): wherever they
 * appear in the first bytes, the file is only ever a download. Case-insensitive, after any BOM.
 */
const ACTIVE_MARKERS = [
  '<!doctype',
  '<html',
  '<head',
  '<body',
  '<script',
  '<svg',
  '<?xml',
  '<iframe',
  '<object',
  '<embed',
  '<meta',
  '<link',
  '<style',
  '<img',
  '<a ',
  '<div',
  '<xsl',
];

/**
 * Names whose extension says "a browser runs this" (scripts, pages, vector images): the name can only
 * make a file a download, never make one render, so trusting it this way is safe.
 */
const ACTIVE_EXTENSIONS =
  /\.(html?|xht(ml)?|shtml|svgz?|xml|xsl|xslt|js|mjs|cjs|jsx|ts|tsx|css|php|swf|vbs|hta|wasm)$/i;

/**
 * The type of an attachment, judged only by its bytes (docs/decisions/073-attachments.md): raster images
 * (the common sniffer), PDF, and UTF-8 plain text without markup render in the browser; anything with
 * markup, and anything else, is `other` and is downloaded as application/octet-stream.
 */
export function sniffContent(head: Uint8Array, fileName: string): SniffedContent {
  const image = sniffRasterImage(head);
  if (image) return { contentType: image, kind: 'image' };
  if (startsWith(head, '%PDF-')) return { contentType: 'application/pdf', kind: 'pdf' };
  if (startsWith(head, 'PK\u0003\u0004')) return { contentType: 'application/zip', kind: 'other' };
  if (head[0] === 0x1f && head[1] === 0x8b) return { contentType: 'application/gzip', kind: 'other' };
  const text = utf8Text(head);
  if (text === null) return { contentType: OCTET_STREAM, kind: 'other' };
  const lower = text.toLowerCase();
  if (ACTIVE_MARKERS.some((marker) => lower.includes(marker)) || ACTIVE_EXTENSIONS.test(fileName)) {
    return { contentType: OCTET_STREAM, kind: 'other' };
  }
  return { contentType: 'text/plain; charset=utf-8', kind: 'text' };
}

function startsWith(bytes: Uint8Array, ascii: string): boolean {
  if (bytes.length < ascii.length) return false;
  for (let index = 0; index < ascii.length; index++) {
    if (bytes[index] !== ascii.charCodeAt(index)) return false;
  }
  return true;
}

/** The head as text when it is UTF-8 (a character cut at its end allowed) with no NUL or other binary controls. */
function utf8Text(head: Uint8Array): string | null {
  let text: string;
  try {
    // `stream: true`: a multi-byte character cut by the end of the head is not an error.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
  // Tab, line feed, form feed and carriage return are text; other C0 controls (NUL first) mean binary.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000e-\u001f]/.test(text)) return null;
  return text.replace(/^\ufeff/, '');
}

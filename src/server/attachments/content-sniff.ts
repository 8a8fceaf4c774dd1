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

/** `file-type`'s reader of a buffer, loaded at the first binary file (the idle footprint, decision 039). */
let fileTypeOf: Promise<(bytes: Uint8Array) => Promise<{ mime: string } | undefined>> | undefined;
const loadFileType = () =>
  (fileTypeOf ??= import('file-type/core').then((module) => module.fileTypeFromBuffer));

/**
 * The type of an attachment, judged only by its bytes (docs/decisions/073-attachments.md, 075): raster
 * images (the common sniffer), PDF, and UTF-8 plain text without markup render in the browser. Markup is
 * looked for first: text with any active marker (or an active name) is `other`, application/octet-stream.
 * Other binary files are named by `file-type` (a zip, a video, a Word file: the type shown in the list),
 * still `other` and so still a download; what nobody recognises is application/octet-stream.
 */
export async function sniffContent(head: Uint8Array, fileName: string): Promise<SniffedContent> {
  const text = utf8Text(head);
  if (text !== null) {
    const lower = text.toLowerCase();
    if (ACTIVE_MARKERS.some((marker) => lower.includes(marker)) || ACTIVE_EXTENSIONS.test(fileName)) {
      return { contentType: OCTET_STREAM, kind: 'other' };
    }
  }
  const image = sniffRasterImage(head);
  if (image) return { contentType: image, kind: 'image' };
  if (startsWith(head, '%PDF-')) return { contentType: 'application/pdf', kind: 'pdf' };
  if (text !== null) return { contentType: 'text/plain; charset=utf-8', kind: 'text' };
  const detected = head.length === 0 ? undefined : await (await loadFileType())(head);
  // Only a plain type token is kept (`type/subtype`): it is shown and exported, never served as such.
  const contentType =
    detected && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(detected.mime)
      ? detected.mime
      : OCTET_STREAM;
  return { contentType, kind: 'other' };
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

import { FILE_NAME_MAX_LENGTH } from '../../../common';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * An object name is valid when it has no empty segment, no `.` or `..` segment and no control
 * characters. Names are data, never paths on disk; this keeps listings and URLs unambiguous.
 */
export function isValidObjectName(name: string): boolean {
  if (name.length === 0 || name.length > 1024 || CONTROL_CHARACTERS.test(name) || !name.isWellFormed())
    return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** A client's file name made safe to use as the last segment of an object name. */
export function safeFileName(fileName: string | undefined, fallback: string): string {
  const base = (fileName ?? '').split(/[\\/]/).pop() ?? '';
  // Cut by code points, not UTF-16 units, so an emoji is never split into a lone surrogate.
  const cleaned = [
    ...[...base]
      .filter((char) => !CONTROL_CHARACTERS.test(char))
      .join('')
      .trim(),
  ]
    .slice(0, FILE_NAME_MAX_LENGTH)
    .join('');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback : cleaned;
}

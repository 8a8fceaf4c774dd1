import { messages } from '../../common';
import { invalidArgument } from '../core/app-error';
import type { ProjectKey } from './projects-repository';

/** A page's `nextCursor`: the last project's order value and id, opaque to clients. */
export const encodeProjectCursor = (key: ProjectKey): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** The keyset a cursor names; a cursor this server did not make is a 400. */
export function decodeProjectCursor(cursor: string, field = 'after'): ProjectKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      value.every((part) => typeof part === 'string' && part.length > 0 && part.length <= 64)
    ) {
      return [value[0] as string, value[1] as string];
    }
  } catch {
    // falls through to the 400
  }
  throw invalidArgument({ [field]: messages.projectCursorInvalid });
}

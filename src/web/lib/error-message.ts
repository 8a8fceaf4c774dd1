import { type FieldErrors } from '../../common';
import { appMessages } from '../../common/app-messages';
import { DojoError } from '../../sdk';

/** The human message of a failed SDK call; anything unexpected gets the generic one (no raw errors). */
export function errorMessage(error: unknown): string {
  return error instanceof DojoError ? error.message : appMessages.internal;
}

/** Per-field problems the server sent with a failed call, if any. */
export function errorFields(error: unknown): FieldErrors {
  return error instanceof DojoError && error.fields ? error.fields : {};
}

interface IssueLike {
  path: readonly PropertyKey[];
  message: string;
}

/** The first message per top-level field of a failed zod parse, keyed like the form's input names. */
export function fieldErrorsFromIssues(issues: readonly IssueLike[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && !(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

import { z } from 'zod';
import { messages, type FieldErrors } from '../../common';
import { invalidArgument } from './app-error';

/** Per-field messages from a zod error, keyed by the top-level field; the first problem per field wins. */
export function fieldErrorsOf(error: z.core.$ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Parses untrusted input with a shared schema, or throws a 400 that names every bad field. A problem the
 * schema has no message of its own for (a body that is not an object, a field of the wrong type) gets the
 * catalogue's `badRequest`, never zod's English.
 */
export function parseInput<T extends z.core.$ZodType>(schema: T, input: unknown): z.core.output<T> {
  const result = z.safeParse(schema, input ?? {}, { error: () => messages.badRequest });
  if (!result.success) throw invalidArgument(fieldErrorsOf(result.error));
  return result.data;
}

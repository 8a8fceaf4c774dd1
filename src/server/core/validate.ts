import { z } from 'zod';
import type { FieldErrors } from '../../common';
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

/** Parses untrusted input with a shared schema, or throws a 400 that names every bad field. */
export function parseInput<T extends z.core.$ZodType>(schema: T, input: unknown): z.core.output<T> {
  const result = z.safeParse(schema, input ?? {});
  if (!result.success) throw invalidArgument(fieldErrorsOf(result.error));
  return result.data;
}

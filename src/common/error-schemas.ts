import { z } from 'zod/mini';
import { errorStatus, type ErrorCode } from './errors';

/**
 * The error body as a schema, for the API description. Apart from errors.ts, which the SDK (and so every
 * screen) imports: this is built when the module is imported, and would load zod with it.
 */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
    requestId: z.optional(z.string()),
  }),
});

/**
 * One error vocabulary for server and SDK: codes are for programs, messages for humans.
 * The server maps each code to its HTTP status; the SDK turns every non-2xx body back into the code.
 * No zod here, as the SDK (so every screen) imports this module: the body's schema is in error-schemas.ts.
 */
export const errorStatus = {
  'invalid-argument': 400,
  unauthenticated: 401,
  'wrong-credentials': 401,
  forbidden: 403,
  'not-found': 404,
  'email-already-in-use': 409,
  conflict: 409,
  gone: 410,
  'request-timeout': 408,
  'payload-too-large': 413,
  'upgrade-required': 426,
  'too-many-requests': 429,
  'headers-too-large': 431,
  'signup-failed': 500,
  internal: 500,
  unavailable: 503,
  'insufficient-storage': 507,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** Per-field problems, keyed by the field name the client sent. */
export type FieldErrors = Record<string, string>;

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    fields?: FieldErrors;
    requestId?: string;
  };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

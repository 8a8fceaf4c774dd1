import { errorStatus, messages, type ErrorCode, type FieldErrors } from '../../common';

/** The one error type services throw; the error handler turns it into a status and a safe body. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
    /** Sent as `Retry-After` (seconds). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const invalidArgument = (fields: FieldErrors, message?: string): AppError =>
  new AppError('invalid-argument', message ?? Object.values(fields)[0] ?? messages.badRequest, fields);

export const unauthenticated = (): AppError => new AppError('unauthenticated', messages.notSignedIn);
export const forbidden = (message: string = messages.forbidden): AppError =>
  new AppError('forbidden', message);
export const notFound = (message: string = messages.notFound): AppError => new AppError('not-found', message);

export const tooManyRequests = (message: string, retryAfterMs: number): AppError =>
  new AppError('too-many-requests', message, undefined, Math.max(1, Math.ceil(retryAfterMs / 1000)));

import { isErrorCode, type ErrorBody, type ErrorCode, type FieldErrors } from '../common';
import { appMessages } from '../common/app-messages';

/** Every failed SDK call rejects with this: `code` for programs, `message` for people. */
export class DojoError extends Error {
  override readonly name = 'DojoError';
  constructor(
    readonly code: ErrorCode | 'network',
    message: string,
    readonly status: number,
    readonly fields?: FieldErrors,
    /** The server's id for the failed request (also in its logs): quote it when reporting a problem. */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

export async function errorFromResponse(response: Response): Promise<DojoError> {
  let body: Partial<ErrorBody> | undefined;
  try {
    body = (await response.json()) as Partial<ErrorBody>;
  } catch {
    body = undefined;
  }
  const error = body?.error;
  const requestId =
    typeof error?.requestId === 'string'
      ? error.requestId
      : (response.headers.get('x-request-id') ?? undefined);
  if (error && isErrorCode(error.code) && typeof error.message === 'string') {
    return new DojoError(error.code, error.message, response.status, error.fields, requestId);
  }
  return new DojoError(
    response.status >= 500 ? 'internal' : 'invalid-argument',
    appMessages.internal,
    response.status,
    undefined,
    requestId,
  );
}

export const networkError = (): DojoError => new DojoError('network', appMessages.network, 0);

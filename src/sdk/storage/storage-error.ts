import { storageErrorTexts as texts, type StorageErrorCode } from '../../common/storage-errors';

export type { StorageErrorCode } from '../../common/storage-errors';

/**
 * Every failed storage call rejects with this. Same shape as the SDK's `DojoError` (`code` for programs,
 * `message` for people, `status`), with the Firebase storage conventions on top: `code` is
 * `storage/<code>`, the message reads `Firebase Storage: <text> (storage/<code>)`, and a non-empty
 * `serverResponse` (the HTTP reason phrase) is appended on its own line.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly code: `storage/${StorageErrorCode}`;
  /** HTTP status of the answer that caused it; 0 for client-side errors and exhausted retries. */
  status: number;
  readonly customData: { serverResponse: string | null } = { serverResponse: null };
  private readonly baseMessage: string;

  constructor(code: StorageErrorCode, text: string, status = 0) {
    const message = `Firebase Storage: ${text} (storage/${code})`;
    super(message);
    this.code = `storage/${code}`;
    this.status = status;
    this.baseMessage = message;
  }

  get serverResponse(): string | null {
    return this.customData.serverResponse;
  }

  set serverResponse(value: string | null) {
    this.customData.serverResponse = value;
    this.message = value ? `${this.baseMessage}\n${value}` : this.baseMessage;
  }

  /** True for `storage/<code>`. */
  is(code: StorageErrorCode): boolean {
    return this.code === `storage/${code}`;
  }
}

export function isStorageError(value: unknown, code?: StorageErrorCode): value is StorageError {
  return value instanceof StorageError && (code === undefined || value.is(code));
}

export const storageErrors = {
  unknown: () => new StorageError('unknown', texts.unknown),
  objectNotFound: (path: string) => new StorageError('object-not-found', texts.objectNotFound(path)),
  quotaExceeded: (bucket: string) => new StorageError('quota-exceeded', texts.quotaExceeded(bucket)),
  unauthenticated: () => new StorageError('unauthenticated', texts.unauthenticated),
  unauthorizedApp: () => new StorageError('unauthorized-app', texts.unauthorizedApp),
  unauthorized: (path: string) => new StorageError('unauthorized', texts.unauthorized(path)),
  retryLimitExceeded: () => new StorageError('retry-limit-exceeded', texts.retryLimitExceeded),
  canceled: () => new StorageError('canceled', texts.canceled),
  invalidUrl: (url: string) => new StorageError('invalid-url', texts.invalidUrl(url)),
  invalidDefaultBucket: (bucket: string) =>
    new StorageError('invalid-default-bucket', texts.invalidDefaultBucket(bucket)),
  noDefaultBucket: () => new StorageError('no-default-bucket', texts.noDefaultBucket),
  cannotSliceBlob: () => new StorageError('cannot-slice-blob', texts.cannotSliceBlob),
  serverFileWrongSize: () => new StorageError('server-file-wrong-size', texts.serverFileWrongSize),
  noDownloadUrl: () => new StorageError('no-download-url', texts.noDownloadUrl),
  invalidArgument: (text: string) => new StorageError('invalid-argument', text),
  invalidRootOperation: (operation: string) =>
    new StorageError('invalid-root-operation', texts.invalidRootOperation(operation)),
};

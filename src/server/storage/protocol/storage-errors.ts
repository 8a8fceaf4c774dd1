import { APP_CHECK_INVALID_PHRASE, storageErrorTexts } from '../../../common/storage-errors';

/**
 * The one error type of the storage service. The /v0 scope's error handler turns it into the protocol's
 * body `{"error":{"code":<status>,"message":"..."}}`, with any extra headers (X-Goog-Upload-Status) and
 * reason phrase it carries.
 */
export class StorageProtocolError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { reasonPhrase?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const storageErrors = {
  invalidArgument: (message: string) => new StorageProtocolError(400, message),
  invalidName: () => new StorageProtocolError(400, 'Invalid object name.'),
  unauthenticated: () => new StorageProtocolError(401, storageErrorTexts.unauthenticated),
  /**
   * The reason phrase is what the web SDK reads to report `storage/unauthorized-app`
   * (docs/storage-protocol.md §8.2).
   */
  appCheckInvalid: () =>
    new StorageProtocolError(401, `${APP_CHECK_INVALID_PHRASE}.`, {
      reasonPhrase: `${APP_CHECK_INVALID_PHRASE}.`,
    }),
  quotaExceeded: (bucket: string) => new StorageProtocolError(402, storageErrorTexts.quotaExceeded(bucket)),
  noWritePermission: (headers?: Record<string, string>) =>
    new StorageProtocolError(403, 'Permission denied. No WRITE permission.', headers ? { headers } : {}),
  objectNotFound: (name: string) => new StorageProtocolError(404, storageErrorTexts.objectNotFound(name)),
  uploadNotFound: () => new StorageProtocolError(404, 'No such upload session.'),
  bucketNotFound: () => new StorageProtocolError(404, storageErrorTexts.bucketNotFound),
  /** 429: a limit on how many at once, not on the bytes (402); it frees up as uploads finish. */
  tooManyOpenUploads: (max: number) =>
    new StorageProtocolError(429, storageErrorTexts.tooManyOpenUploads(max)),
  tooLarge: () => new StorageProtocolError(413, 'The request body is too large.'),
};

/**
 * The storage error catalogue (docs/storage-protocol.md#83-error-codes-and-texts, docs/product-spec.md#8-messages): one code and one text per situation.
 * The SDK shows them as `Firebase Storage: <text> (storage/<code>)`, the Firebase web SDK's wording, so
 * code written against firebase/storage reads our errors unchanged.
 */
export type StorageErrorCode =
  | 'unknown'
  | 'object-not-found'
  | 'quota-exceeded'
  | 'unauthenticated'
  | 'unauthorized-app'
  | 'unauthorized'
  | 'retry-limit-exceeded'
  | 'canceled'
  | 'invalid-url'
  | 'invalid-default-bucket'
  | 'no-default-bucket'
  | 'cannot-slice-blob'
  | 'server-file-wrong-size'
  | 'no-download-url'
  | 'invalid-argument'
  | 'invalid-root-operation';

export const storageErrorTexts = {
  unknown: 'An unknown error occurred, please check the error payload for server response.',
  objectNotFound: (path: string) => `Object '${path}' does not exist.`,
  quotaExceeded: (bucket: string) =>
    `Quota for bucket '${bucket}' exceeded, please view quota on https://firebase.google.com/pricing/.`,
  unauthenticated:
    'User is not authenticated, please authenticate using Firebase Authentication and try again.',
  unauthorizedApp: 'This app does not have permission to access Firebase Storage on this project.',
  unauthorized: (path: string) => `User does not have permission to access '${path}'.`,
  retryLimitExceeded: 'Max retry time for operation exceeded, please try again.',
  canceled: 'User canceled the upload/download.',
  invalidUrl: (url: string) => `Invalid URL '${url}'.`,
  invalidDefaultBucket: (bucket: string) => `Invalid default bucket '${bucket}'.`,
  noDefaultBucket:
    "No default bucket found. Did you set the 'storageBucket' property when initializing the app?",
  cannotSliceBlob: 'Cannot slice blob for upload. Please retry the upload.',
  serverFileWrongSize: 'Server recorded incorrect upload file size, please retry the upload.',
  noDownloadUrl: 'The given file does not have any download URLs.',
  invalidRootOperation: (operation: string) =>
    `The operation '${operation}' cannot be performed on a root reference, create a non-root reference using child, such as .child('file.png').`,
  /** `invalid-argument` texts: the caller-facing validation messages. */
  maxResultsTooSmall: "Invalid value for 'options.maxResults'. Expected 1 or greater.",
  maxResultsTooLarge: "Invalid value for 'options.maxResults'. Expected 1000 or less.",
  maxResultsNotInteger: "Invalid value for 'options.maxResults'. Expected an integer.",
  retryTimeNegative: "Invalid value for 'time'. Expected 0 or greater.",
  refNeedsStorage: 'To use ref(service, url), the first argument must be a Storage instance.',
  /** Server refusals of our own hardening (docs/security.md, decision 013). */
  bucketNotFound: 'The specified bucket does not exist.',
  tooManyOpenUploads: (max: number) =>
    `Too many unfinished uploads: at most ${max} at a time. Finish or cancel one, then try again.`,
  invalidContentType:
    "Invalid value for 'contentType'. Expected a media type such as 'image/png' or 'text/plain; charset=utf-8'.",
  invalidHeaderField: (field: string) =>
    `Invalid value for '${field}'. Expected printable ASCII text without line breaks.`,
  invalidCustomMetadataKey: "Invalid custom metadata key. Expected letters, digits and !#$%&'*+-.^_`|~ only.",
  invalidCustomMetadataValue: (key: string) =>
    `Invalid custom metadata value for '${key}'. Line breaks and control characters are not allowed.`,
} as const;

/** The reason phrase a server puts on a 401 to say the App Check token (not the user) was refused. */
export const APP_CHECK_INVALID_PHRASE = 'Firebase App Check token is invalid';

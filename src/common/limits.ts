/**
 * Business constants from docs/product-spec.md §9 and our own hardening limits. One place, both sides import.
 */
export const THUMBNAIL_MAX_BYTES = 100_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const DISPLAY_NAME_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 254;
export const FILE_NAME_MAX_LENGTH = 200;

export const PROJECT_NAME_MAX_LENGTH = 200;
export const PROJECT_DETAILS_MAX_LENGTH = 10_000;
export const COMMENT_MAX_LENGTH = 10_000;

export const STORAGE_RESUMABLE_THRESHOLD = 262_144;
export const STORAGE_CHUNK_SIZE_START = 262_144;
export const STORAGE_CHUNK_SIZE_CAP = 33_554_432;
export const STORAGE_MAX_OPERATION_RETRY_MS = 120_000;
export const STORAGE_MAX_UPLOAD_RETRY_MS = 600_000;
export const STORAGE_LIST_MAX_RESULTS = 1000;
/** Each writable metadata field (cacheControl, contentType, ...), in characters. */
export const STORAGE_METADATA_FIELD_MAX_CHARS = 1024;
/** A custom metadata key and value, in characters; all custom metadata together, as JSON, in bytes. */
export const STORAGE_CUSTOM_METADATA_KEY_MAX_CHARS = 256;
export const STORAGE_CUSTOM_METADATA_VALUE_MAX_CHARS = 4096;
export const STORAGE_CUSTOM_METADATA_MAX_BYTES = 8 * 1024;
/** Unfinished resumable uploads one user may hold at once (each reserves its declared size of the quota). */
export const STORAGE_OPEN_UPLOADS_MAX = 20;
/** The longest an unfinished resumable upload lives after its start (default of STORAGE_UPLOAD_TTL_MS). */
export const STORAGE_UPLOAD_SESSION_TTL_MAX_MS = 24 * 60 * 60 * 1000;

/** Presence: a user without any live connection is marked offline after this long. */
export const PRESENCE_GRACE_MS = 60_000;

/**
 * Live data, per server instance (the config can change each): subscriptions one socket may hold, and
 * sockets one session (browser) and one user may hold at once. See docs/security.md, "Live connections".
 */
export const LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET = 100;
export const LIVE_MAX_SOCKETS_PER_SESSION = 20;
export const LIVE_MAX_SOCKETS_PER_USER = 50;

/** The most documents one live query may return at once. */
export const LIVE_QUERY_LIMIT_MAX = 1000;

/** Comments are read newest first, a page at a time, live (the newest page) and over HTTP (older ones). */
export const COMMENTS_PAGE_SIZE = 20;
export const COMMENTS_PAGE_MAX = 100;

/** Default writes per user per minute (the config can change each); answered 429 with Retry-After. */
export const PROJECT_CREATES_PER_MINUTE = 30;
export const COMMENTS_PER_MINUTE = 60;
export const UPLOADS_PER_MINUTE = 60;
/** Spreadsheet exports each user may start per minute, per list: each one reads the whole list. */
export const EXPORTS_PER_MINUTE = 10;
/**
 * Every other write a signed-in user makes (edits, completes, deletes, profile, sign-outs, admin changes…):
 * each route its own budget per user per minute (docs/decisions/045-every-write-limited-per-user.md).
 */
export const WRITES_PER_MINUTE = 60;
/** Failed logins one account may take per window, from every address and instance together (default). */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
/**
 * The per-account window. Fixed from its first failure and never extended by refused attempts, so the
 * owner waits at most this long, however many addresses keep failing.
 */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;
/** HTTP edge (docs/security.md "Request size, timeouts and connections"). */
/** A request's headers must arrive within this long of its first byte (slowloris). */
export const HTTP_HEADERS_TIMEOUT_MS = 20_000;
/** A JSON or form body must arrive within this long; storage bodies have no total deadline. */
export const HTTP_BODY_TIMEOUT_MS = 60_000;
/** A connection with no byte either way for this long is closed (stalled bodies and downloads). */
export const HTTP_IDLE_TIMEOUT_MS = 60_000;
/** An idle keep-alive connection is closed after this long (above common proxies' 60 s upstream idle). */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** Default for MAX_CONNECTIONS_PER_ADDRESS: open TCP connections (HTTP and live) per peer address. */
export const MAX_CONNECTIONS_PER_ADDRESS = 100;
/** A JSON API body (projects, comments, login). */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;
/** The signup form: the largest thumbnail plus room for the text fields and part headers. */
export const SIGNUP_BODY_MAX_BYTES = THUMBNAIL_MAX_BYTES + 64 * 1024;
/**
 * A refusal sent before its request body was read: a rest up to this size is read and dropped, so the
 * connection stays usable; a larger one is not read, and the connection is closed after the answer.
 */
export const UNREAD_BODY_DRAIN_MAX_BYTES = 64 * 1024;

/** Team accounts (docs/decisions/018-team-roles.md). */
export const INVITATION_MAX_USES = 1000;
export const INVITATION_MAX_DAYS = 90;
export const SIGNUP_DOMAINS_MAX = 50;
/** A reset link, from an admin or by email, works once and for this long. */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
/** 'Forgot password?' emails per address per hour, from every instance together. */
export const PASSWORD_RESET_EMAILS_PER_HOUR = 3;
/** A session's last-seen time is written at most this often (it is what the settings screen shows). */
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000;

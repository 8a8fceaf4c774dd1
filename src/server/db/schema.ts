import type { Generated } from 'kysely';
import type { Role } from '../../common';
import type { Theme } from '../../common/appearance';

/**
 * Table types for Kysely. Timestamps are ISO 8601 UTC strings with milliseconds in both dialects, so
 * they sort as text and travel unchanged; booleans are 0/1 integers so both dialects read the same.
 */
export interface UsersTable {
  id: string;
  email: string;
  /** Lower-cased email: uniqueness regardless of case. */
  email_key: string;
  password_hash: string;
  display_name: string;
  /** `nameSearchKey(display_name)`: what "Assign to" searches. */
  search_name: string;
  /** `displayNameKey(display_name)`, unique: no member can take another's name; null once deleted. */
  name_key: string | null;
  photo_url: string;
  online: number;
  /** 'admin' or 'member' (docs/decisions/018-team-roles.md). */
  role: Role;
  /** 'active'; 'deactivated' (cannot sign in, an admin may reactivate); 'deleted' (kept for what they wrote). */
  status: AccountStatus;
  /** The last time one of their sessions was used, written at most every SESSION_TOUCH_INTERVAL_MS. */
  last_active_at: string | null;
  created_at: string;
  updated_at: string;
  /** The theme the member pinned: 'system' (the default), 'light' or 'dark' (docs/decisions/069-dark-theme-and-room-to-work.md). */
  theme: Generated<Theme>;
}

export type AccountStatus = 'active' | 'deactivated' | 'deleted';

interface SessionsTable {
  /** sha256 of the session token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  /** The User-Agent of the request that signed in ('' when none): the settings screen names the device. */
  user_agent: string;
  /** When the session was last used, written at most every SESSION_TOUCH_INTERVAL_MS; null before that. */
  last_seen_at: string | null;
  /** 'browser': signed in through a page; 'api-token': a personal API token its owner made in settings. */
  kind: Generated<SessionKind>;
  /** An API token's name, as its owner typed it; null for a browser session. */
  name: string | null;
  /** An API token's scope ('read' or 'write'); null for a browser session, which may do all its owner may. */
  scope: ApiTokenScope | null;
  /** An API token's public id (what settings lists and revokes by); null for a browser session. */
  token_id: string | null;
}

export type SessionKind = 'browser' | 'api-token';
export type ApiTokenScope = 'read' | 'write';

/** Who signed in through an OpenID provider: the provider's `sub` for one provider id is one account. */
interface ExternalIdentitiesTable {
  /** The provider's id from configuration (OIDC_PROVIDERS). */
  provider: string;
  /** The ID token's `sub`. */
  subject: string;
  user_id: string;
  /** The email the provider reported at the last sign-in, as it said it (for the account screen). */
  email: string | null;
  created_at: string;
  last_used_at: string;
}

/**
 * A sign-in in progress that must survive a hop to another instance: an OpenID redirect (state, nonce, PKCE
 * verifier), a WebAuthn challenge, or a password accepted that still waits for its second step. Keyed by the
 * sha256 of the id the browser holds; deleted when used, so each is used once.
 */
interface SignInFlowsTable {
  id_hash: string;
  kind: SignInFlowKind;
  /** Whose sign-in it is, when that is known already (a second step, adding a passkey). */
  user_id: string | null;
  /** JSON, shaped by the kind. */
  data: string;
  /** Wrong answers so far (a second step's codes). */
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
}

export type SignInFlowKind = 'oidc' | 'passkey-sign-in' | 'passkey-registration' | 'second-step';

/** A WebAuthn credential (passkey) a member registered. */
interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The member's name for it ("Work laptop"). */
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter (0 for authenticators that keep none). */
  counter: number;
  /** JSON array of the transports the authenticator reported. */
  transports: string;
  created_at: string;
  last_used_at: string | null;
}

/** A member's TOTP secret (RFC 6238); on only once `confirmed_at` is set by a first correct code. */
interface TotpFactorsTable {
  user_id: string;
  /** Base32 secret. */
  secret: string;
  confirmed_at: string | null;
  /** The last 30-second step a code was accepted for: a code is accepted once. */
  last_step: number | null;
  created_at: string;
}

/** One-time recovery codes for a member with TOTP on; stored hashed, used once. */
interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

interface InvitationsTable {
  id: string;
  /** sha256 of the link's token; the token is shown once, to the admin who made it. */
  token_hash: string;
  /** Only this address may sign up with it (compared without case); null for anyone. */
  email: string | null;
  max_uses: number;
  uses: number;
  expires_at: string;
  revoked_at: string | null;
  created_by: string;
  created_at: string;
}

interface PasswordResetsTable {
  /** sha256 of the link's token. */
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
  /** The admin who made the link for a member (voided when they stop being an admin); null when emailed. */
  created_by: string | null;
}

interface SettingsTable {
  key: string;
  value: string;
}

export interface StorageObjectsTable {
  bucket: string;
  name: string;
  generation: string;
  metageneration: number;
  size: number;
  md5_hash: string;
  content_type: string;
  cache_control: string | null;
  content_disposition: string | null;
  content_encoding: string | null;
  content_language: string | null;
  /** JSON object of string → string, or null. */
  custom_metadata: string | null;
  /** Comma-separated download tokens. */
  download_tokens: string;
  /** Key of the bytes in the BlobStore; never derived from the object name. */
  blob_key: string;
  /** The user whose quota the object counts against (files/{uid}/, thumbnails/{uid}/). */
  owner_uid: string | null;
  time_created: string;
  updated: string;
}

export interface ProjectsTable {
  id: string;
  name: string;
  details: string;
  /** Calendar day YYYY-MM-DD. */
  due_date: string;
  category: string;
  created_by: string;
  created_at: string;
  /** Raised by every edit; an edit names the version it started from (409 when it moved on). */
  version: Generated<number>;
  updated_at: string;
  /** Set by 'Mark as Complete': the project leaves every dashboard but is kept (null while open). */
  completed_at: string | null;
  completed_by: string | null;
}

interface ProjectAssigneesTable {
  project_id: string;
  user_id: string;
  /** Order in which the creator assigned them. */
  position: number;
}

interface CommentsTable {
  /** Commit order: comments are listed by it, so each client's comments keep the order it sent them. */
  seq: Generated<number>;
  id: string;
  project_id: string;
  author_id: string;
  content: string;
  created_at: string;
  /** When its author last edited it; null if never. */
  edited_at: string | null;
}

/** One row per live session per instance, refreshed while its sockets are open (presence). */
interface LivePresenceTable {
  instance_id: string;
  session_hash: string;
  user_id: string;
  last_seen_at: string;
}

/** One tab looking at one project (docs/decisions/027-mentions-and-who-is-looking.md). */
interface ProjectViewersTable {
  instance_id: string;
  /** This instance's key for one live subscription (one tab's view of the project). */
  viewing_id: string;
  project_id: string;
  user_id: string;
  last_seen_at: string;
}

export interface Database {
  projects: ProjectsTable;
  project_assignees: ProjectAssigneesTable;
  comments: CommentsTable;
  live_presence: LivePresenceTable;
  project_viewers: ProjectViewersTable;
  users: UsersTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  settings: SettingsTable;
  storage_objects: StorageObjectsTable;
  storage_uploads: StorageUploadsTable;
  rate_limits: RateLimitsTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  notification_emails: NotificationEmailsTable;
  notification_jobs: NotificationJobsTable;
  external_identities: ExternalIdentitiesTable;
  sign_in_flows: SignInFlowsTable;
  passkeys: PasskeysTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  calendar_feeds: CalendarFeedsTable;
  attachments: AttachmentsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  import_jobs: ImportJobsTable;
  imported_sources: ImportedSourcesTable;
}

/** An admin's import running in the background (docs/decisions/081-trello-import.md). */
interface ImportJobsTable {
  id: string;
  /** 'trello'. */
  source: string;
  /** 'queued', 'running', 'completed' or 'failed'. */
  status: string;
  /** What is imported, as the admin knows it (the board's name). */
  title: string;
  /** The validated export and the admin's choices, as JSON; emptied once the job ends. */
  payload: string;
  total_items: number;
  /** Items (cards) done, in the payload's order: a job taken over by another instance goes on from here. */
  processed_items: Generated<number>;
  projects_created: Generated<number>;
  comments_created: Generated<number>;
  skipped: Generated<number>;
  error: string | null;
  /** The instance running it, until `claimed_until` (real time): at most one runs a job at a time. */
  claimed_by: string | null;
  claimed_until: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** What a source's item became here: `kind` 'trello-card' → a project id, 'trello-comment' → a comment id. */
interface ImportedSourcesTable {
  kind: string;
  source_id: string;
  target_id: string;
  import_id: string;
  created_at: string;
}

/** An outgoing webhook's endpoint (docs/decisions/077-webhook-delivery-guarantees.md). */
interface WebhookEndpointsTable {
  id: string;
  url: string;
  /** JSON array of the event names it hears, e.g. `["project.created"]` (matched with LIKE '%"name"%'). */
  events: string;
  /** The HMAC key of its signatures; kept as is, since signing needs it (never sent back after creation). */
  secret: string;
  /** 1 or 0: disabled after repeated failures until an admin enables it again. */
  enabled: Generated<number>;
  consecutive_failures: Generated<number>;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** The instance sending its queue, until `claimed_until` (real time): at most one sends at a time. */
  claimed_by: string | null;
  claimed_until: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint: the outbox row written in the transaction of the change it tells of. */
interface WebhookDeliveriesTable {
  /** Commit order: an endpoint's queue is sent in it. */
  seq: Generated<number>;
  /** `<event id>-<endpoint id>`, or a fresh id for a resend. */
  id: string;
  endpoint_id: string;
  event: string;
  project_id: string | null;
  /** The JSON body sent, byte for byte the same on every attempt. */
  payload: string;
  /** 'pending', 'delivered' or 'failed'. */
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  duration_ms: number | null;
  response_excerpt: string | null;
  created_at: string;
}

/** A file on a project or a comment (docs/decisions/073-attachments.md); its bytes are a storage object. */
interface AttachmentsTable {
  /** Commit order: a project's attachments are listed newest first by it. */
  seq: Generated<number>;
  id: string;
  project_id: string;
  comment_id: string | null;
  uploader_id: string;
  /** The storage object with the bytes (`attachments/{projectId}/{uploader}/{upload id}/{name}`). */
  object_name: string;
  name: string;
  size: number | string;
  /** `name` folded for search (`nameSearchKey`: case and accents ignored). */
  search_name: string;
  /** Sniffed from the stored bytes at registration, never the declared type. */
  content_type: string;
  kind: 'image' | 'pdf' | 'text' | 'other';
  /** The storage object of its thumbnail (images only), or null. */
  thumbnail_name: string | null;
  created_at: string;
}

/** A member's private calendar feed (docs/decisions/068-private-calendar-feed.md). */
interface CalendarFeedsTable {
  user_id: string;
  /** sha256 of the feed's secret (the last segment of its address); the secret itself is never stored. */
  token_hash: string;
  /** 'all' (every open project) or 'mine' (those the member is assigned to). */
  scope: 'all' | 'mine';
  /** When the current secret was made (turned on or reset). */
  created_at: string;
  /** The last change of the feed's settings: part of its Last-Modified. */
  updated_at: string;
}

/** The notification email outbox (docs/decisions/029-notification-email.md). */
interface NotificationEmailsTable {
  notification_id: string;
  user_id: string;
  /** One message per batch: `immediate:<notification>` or `digest:<user>:<day>`. */
  batch_key: string;
  /** A digest's calendar day (YYYY-MM-DD); null for an immediate email. */
  digest_day: string | null;
  created_at: string;
  /** An instance sending it holds it until then (real time); a crash lets another retry after. */
  claimed_until: string | null;
  attempts: Generated<number>;
  /** Sent then, or dropped then: its recipient was deactivated or deleted (decision 046). */
  sent_at: string | null;
}

/** An action's notifications still to write (docs/decisions/034-queued-notifications.md). */
interface NotificationJobsTable {
  seq: Generated<number>;
  /** The action's `NotificationDraft`s as JSON. */
  drafts: string;
  created_at: string;
}

/** One notification for one recipient (docs/decisions/025-notifications.md). */
export interface NotificationsTable {
  /** Insertion order: the panel pages newest first by it. */
  seq: Generated<number>;
  id: string;
  user_id: string;
  /** A `NotificationKind` from src/common/notifications.ts. */
  kind: string;
  project_id: string;
  comment_id: string | null;
  /** Who caused it; null for scheduled reminders. */
  actor_id: string | null;
  /** Unique when set: a scheduled reminder's `kind:project:user:due_date`, so it is created exactly once. */
  dedupe_key: string | null;
  created_at: string;
  read_at: string | null;
}

interface NotificationPreferencesTable {
  user_id: string;
  kind: string;
  in_app: number;
  /** A `NotificationEmailMode`. */
  email: string;
}

export type StorageUploadStatus = 'active' | 'final' | 'cancelled';

/** A resumable upload session (docs/storage-protocol.md#51-session-state); its bytes are a `.part` named by upload_id. */
export interface StorageUploadsTable {
  /** Random, URL-safe; the session's handle in the upload URL. Never derived from the object name. */
  upload_id: string;
  bucket: string;
  name: string;
  /** The user who started the session; only they may continue it. */
  owner_uid: string;
  /** JSON of the writable metadata sent at start, already validated. */
  metadata: string;
  /** X-Goog-Upload-Header-Content-Length: the object is made only when exactly this many bytes arrived. */
  declared_size: number;
  content_type: string;
  /** Bytes durably stored (synced to disk before this is raised). */
  received: number;
  status: StorageUploadStatus;
  /** JSON of the object resource once final, replayed by a repeated finalize. */
  final_resource: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Rate-limit counters shared by every instance on PostgreSQL (docs/decisions/009-shared-rate-limits.md);
 * SQLite keeps them in memory and leaves this table empty. One row per route and client address.
 */
interface RateLimitsTable {
  /** The route (method and URL) followed by the client's key (its address). */
  key: string;
  /** Requests in the current window. */
  count: number;
  /** When the current window ends, in ms since the epoch by the database's clock. */
  reset_at: number;
}

/** The database engine an install runs on. */
export type DialectName = 'sqlite' | 'postgres';

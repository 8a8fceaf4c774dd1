import type { Logger } from './core/logger';
import type { Kysely } from 'kysely';
import { AccountService } from './account/account-service';
import { AppearanceService } from './account/appearance-service';
import { ApiTokensService } from './api-tokens/api-tokens-service';
import { AttachmentsService } from './attachments/attachments-service';
import { isProjectOpen } from './attachments/attachments-repository';
import { CalendarFeedService } from './calendar-feed/calendar-feed-service';
import { Mailer } from './notifications/mailer';
import { PasswordResetService } from './team/password-reset-service';
import { AuthService } from './auth/auth-service';
import { SecondStepService } from './auth/second-step/second-step-service';
import { PasskeysService } from './passkeys/passkeys-service';
import { OidcProviders } from './single-sign-on/oidc-providers';
import { SingleSignOnService } from './single-sign-on/single-sign-on-service';
import { SsoPolicyService } from './single-sign-on/sso-policy';
import { SessionActivity } from './auth/session-activity';
import { IdTokens } from './auth/id-tokens';
import { LoginFailureLimit } from './auth/login-failures';
import { SessionCache } from './auth/session-cache';
import { createViewerResolver } from './auth/viewer';
import type { ViewerResolver } from './http/viewer-resolver';
import { mailSettingsOf, type Config } from './config/config';
import type { DatabaseHandle } from './db/database';
import type { Database } from './db/schema';
import type { ChangeBus } from './db/change-bus';
import { DueReminderScheduler, fileClock, systemClock } from './notifications/due-reminders';
import { NotificationEmailOutbox } from './notifications/email-outbox';
import { NotificationJobs } from './notifications/notification-jobs';
import { inAppNotifier, NotificationsService } from './notifications/notifications-service';
import { PresenceService } from './presence/presence-service';
import { ProjectViewersService } from './project-viewers/project-viewers-service';
import { ProjectsService } from './projects/projects-service';
import { CommentsService } from './comments/comments-service';
import { UnitOfWork } from './db/unit-of-work';
import { RateLimitCounters } from './rate-limits/rate-limits-repository';
import { SearchService } from './search/search-service';
import { ExportsService } from './exports/exports-service';
import { newId } from './core/ids';
import { HmacAppCheckTokens } from './storage/protocol/app-check';
import type { BlobStore } from './storage/stores/blob-store';
import { createBlobStore, type OpenedBlobStore } from './storage/stores/create-blob-store';
import { withExportDeletionHold } from './backup/blob-deletion-hold';
import { ResumableUploads } from './storage/uploads/resumable-uploads';
import { StorageService } from './storage/objects/storage-service';
import { StorageSweeper } from './storage/uploads/storage-sweeper';
import { KeyedMutex } from './core/keyed-mutex';
import { InvitationsService } from './team/invitations-service';
import { MembersService } from './team/members-service';
import { SignupPolicyService } from './team/signup-policy-service';
import { ProfileThumbnails } from './users/profile-thumbnails';
import { UsersService } from './users/users-service';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher';
import { WebhookOutbox } from './webhooks/webhook-outbox';
import { WebhooksService } from './webhooks/webhooks-service';
import { TrelloImportRunner } from './trello-import/trello-import-runner';
import { TrelloImportService } from './trello-import/trello-import-service';

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  bus: ChangeBus;
  log: Logger;
  /** Replaces scrypt hashing at signup: only the data generator, which signs up thousands of accounts. */
  hashPassword?: (password: string) => Promise<string>;
  /**
   * Where project and comment writes go instead of `database.db`: only the data generator, which batches
   * commits.
   */
  projectsDb?: Kysely<Database>;
}

/** Every service of one server, wired once for the app, the data generator and tests alike. */
export interface Services {
  viewers: ViewerResolver;
  sessions: SessionCache;
  idTokens: IdTokens;
  rateLimitCounters: RateLimitCounters;
  storage: StorageService;
  /** Where object bytes live; the readiness check asks it whether it can take writes. */
  blobs: BlobStore;
  resumableUploads: ResumableUploads;
  storageSweeper: StorageSweeper;
  /** Disk or S3 (STORAGE_DRIVER); closed with the app. */
  blobStore: OpenedBlobStore;
  appCheck: HmacAppCheckTokens;
  presence: PresenceService;
  /** Started when the app is ready, stopped on close. */
  dueReminders: DueReminderScheduler;
  /** Writes the notifications actions queued; started when the app is ready, stopped on close. */
  notificationJobs: NotificationJobs;
  projectViewers: ProjectViewersService;
  auth: AuthService;
  /** Two-step sign-in: TOTP, recovery codes, the team's policy (decision 064). */
  secondStep: SecondStepService;
  /** Passkeys: added in settings, signing in alone or as the second step (docs/decisions/065-passkeys.md). */
  passkeys: PasskeysService;
  /** Sign-in through OpenID Connect providers, and "Require single sign-on" (decisions 062, 066). */
  singleSignOn: SingleSignOnService;
  ssoPolicy: SsoPolicyService;
  users: UsersService;
  projects: ProjectsService;
  comments: CommentsService;
  /** Files on projects and comments (docs/decisions/073-attachments.md). */
  attachments: AttachmentsService;
  notifications: NotificationsService;
  search: SearchService;
  /** Spreadsheet export of the lists (docs/decisions/079-spreadsheet-export.md). */
  exports: ExportsService;
  signupPolicy: SignupPolicyService;
  invitations: InvitationsService;
  members: MembersService;
  account: AccountService;
  /** The member's theme (docs/decisions/069-dark-theme-and-room-to-work.md). */
  appearance: AppearanceService;
  /** Personal API tokens (docs/decisions/063-personal-api-tokens.md). */
  apiTokens: ApiTokensService;
  /** The private calendar feed (docs/decisions/068-private-calendar-feed.md). */
  calendarFeed: CalendarFeedService;
  passwordResets: PasswordResetService;
  /** Present when SMTP_URL is set; closed with the app. */
  mailer: Mailer | undefined;
  /** Notification email (decision 029); absent without SMTP_URL. */
  notificationEmail: NotificationEmailOutbox | undefined;
  /** Outgoing webhooks' endpoints (docs/decisions/077-webhook-delivery-guarantees.md). */
  webhooks: WebhooksService;
  /** Sends the webhook outbox; started when the app is ready, stopped on close. */
  webhookDispatcher: WebhookDispatcher;
  /** Admins' Trello imports (docs/decisions/081-trello-import.md). */
  trelloImport: TrelloImportService;
  /** Runs queued imports in the background; started when the app is ready, stopped on close. */
  trelloImportRunner: TrelloImportRunner;
}

/** Builds every service from config, database and change bus; nothing starts (timers start in presence.start()). */
export async function createServices({
  config,
  database,
  bus,
  log,
  hashPassword,
  projectsDb,
}: ServiceDeps): Promise<Services> {
  const { db, dialect } = database;
  const idTokens = await IdTokens.load(db);
  const sessions = new SessionCache(bus);
  const activity = new SessionActivity({ db, log });
  const viewers = createViewerResolver({ db, idTokens, publicUrl: config.publicUrl, sessions, activity });
  const blobStore = await createBlobStore(config.blobStorage, config.dataDir);
  // An export in progress holds blob deletions back (backup/blob-deletion-hold.ts).
  const blobs = withExportDeletionHold(blobStore.blobs, db);
  const uploadLocks = new KeyedMutex();
  const uploadSessionTtlMs = config.storageUploadSessionTtlMs;
  const storage = new StorageService({
    db,
    dialect,
    blobs,
    bucket: config.storageBucket,
    publicUrl: config.publicUrl,
    quotaBytes: config.storageQuotaBytes,
    uploadSessionTtlMs,
    attachmentMaxBytes: config.attachmentMaxBytes,
    attachmentProjectOpen: (projectId) => isProjectOpen(db, projectId),
  });
  const resumableUploads = new ResumableUploads({
    db,
    dialect,
    blobs,
    objects: storage,
    uploadLocks,
    uploadSessionTtlMs,
  });
  const storageSweeper = new StorageSweeper({ db, blobs, uploadLocks, uploadSessionTtlMs });
  const instanceId = newId();
  const presence = new PresenceService({
    db,
    changes: bus,
    instanceId,
    graceMs: config.presenceGraceMs,
    log,
  });
  const projectViewers = new ProjectViewersService({
    db,
    changes: bus,
    instanceId,
    graceMs: config.presenceGraceMs,
    log,
  });
  const clock = config.testClockFile ? fileClock(config.testClockFile) : systemClock;
  const dueReminders = new DueReminderScheduler({
    db,
    bus,
    clock,
    timeZone: config.notificationTimeZone,
    intervalMs: config.dueReminderIntervalMs,
    log,
  });
  const notificationJobs = new NotificationJobs({
    db,
    changes: bus,
    markCommits: database.markCommits,
    sweepIntervalMs: config.notificationJobSweepMs,
    log,
  });
  // Every write's one path (db/unit-of-work.ts); a job of queued notifications goes to `notificationJobs`.
  const notifier = inAppNotifier(notificationJobs);
  // Webhook deliveries are written in the transaction of the change they tell of (decision 077).
  const webhookDispatcher = new WebhookDispatcher({
    db,
    instanceId,
    log,
    options: {
      pollMs: config.webhookPollMs,
      retryBaseMs: config.webhookRetryBaseMs,
      retryForMs: 24 * 60 * 60_000,
      disableAfterFailures: config.webhookDisableAfterFailures,
      allowPrivate: config.outboundAllowPrivate,
    },
  });
  const webhookOutbox = new WebhookOutbox({
    db,
    onWritten: () => webhookDispatcher.wake(),
    listenersCacheMs: config.webhookListenersCacheMs,
  });
  const writes = new UnitOfWork({ db, changes: bus, notifier, events: webhookOutbox });
  const contentWrites = projectsDb
    ? new UnitOfWork({ db: projectsDb, changes: bus, notifier, events: webhookOutbox })
    : writes;
  const rateLimitCounters = new RateLimitCounters({ db, dialect, log });
  const trelloImportRunner = new TrelloImportRunner({
    db,
    writes,
    instanceId,
    log,
    pollMs: TRELLO_IMPORT_POLL_MS,
  });
  // Refuses SMTP_URL without PUBLIC_URL here too, for configs not made by loadConfig (tests, scripts).
  const mailSettings = mailSettingsOf(config);
  const mailer = mailSettings ? new Mailer(mailSettings) : undefined;
  const notificationEmail = mailer
    ? new NotificationEmailOutbox({
        db,
        bus,
        mailer,
        clock,
        timeZone: config.notificationTimeZone,
        digestHour: config.digestHour,
        intervalMs: config.notificationEmailIntervalMs,
        log,
      })
    : undefined;
  const loginFailures = new LoginFailureLimit({
    counters: rateLimitCounters,
    maxFailures: config.loginFailuresPerAccount,
    log,
  });
  const invitations = new InvitationsService({ db, publicUrl: config.publicUrl });
  const signupPolicy = new SignupPolicyService({ db, initial: config.initialSignupPolicy, invitations });
  const thumbnails = new ProfileThumbnails(storage);
  const oidcProviders = new OidcProviders({
    providers: config.oidcProviders,
    publicUrl: config.publicUrl,
    clockToleranceSeconds: config.oidcClockToleranceSeconds,
  });
  const ssoPolicy = new SsoPolicyService({ db, providers: oidcProviders });
  const auth = new AuthService({
    db,
    thumbnails,
    signupPolicy,
    idTokens,
    writes,
    sessions,
    presence,
    log,
    loginFailures,
    hashPassword,
    passwordSignIns: ssoPolicy,
  });
  const attachments = new AttachmentsService({
    db,
    writes,
    storage,
    unregisteredGraceMs: config.attachmentUnregisteredGraceMs,
  });
  const projects = new ProjectsService({
    db: projectsDb ?? db,
    dialect,
    writes: contentWrites,
    changes: bus,
    projectFiles: attachments,
  });
  return {
    viewers,
    sessions,
    idTokens,
    rateLimitCounters,
    storage,
    blobs,
    resumableUploads,
    storageSweeper,
    blobStore,
    appCheck: new HmacAppCheckTokens(db),
    presence,
    dueReminders,
    notificationJobs,
    projectViewers,
    auth,
    secondStep: new SecondStepService({ db, auth, loginFailures }),
    passkeys: new PasskeysService({ db, auth, localSignIns: ssoPolicy }),
    singleSignOn: new SingleSignOnService({
      db,
      writes,
      auth,
      providers: oidcProviders,
      signupGate: signupPolicy,
      thumbnails,
      log,
      outboundAllowPrivate: config.outboundAllowPrivate,
    }),
    ssoPolicy,
    users: new UsersService({ db }),
    projects,
    calendarFeed: new CalendarFeedService({ db, writes, projects }),
    comments: new CommentsService({ db: projectsDb ?? db, writes: contentWrites }),
    attachments,
    notifications: new NotificationsService({ db, writes, emailAvailable: mailer !== undefined }),
    search: new SearchService({ db, dialect }),
    // The search is stateless: the export's own instance reads as GET /api/search does.
    exports: new ExportsService({
      db: projectsDb ?? db,
      dialect,
      projects,
      search: new SearchService({ db, dialect }),
    }),
    signupPolicy,
    invitations,
    members: new MembersService({ db, auth, writes }),
    account: new AccountService({ db, auth, thumbnails, writes }),
    appearance: new AppearanceService({ db }),
    apiTokens: new ApiTokensService({ db, auth, writes }),
    passwordResets: new PasswordResetService({
      db,
      auth,
      writes,
      mailer,
      counters: rateLimitCounters,
      publicUrl: config.publicUrl,
      log,
    }),
    mailer,
    notificationEmail,
    webhooks: new WebhooksService({
      db,
      outbox: webhookOutbox,
      wake: () => webhookDispatcher.wake(),
      allowPrivate: config.outboundAllowPrivate,
    }),
    webhookDispatcher,
    trelloImport: new TrelloImportService({ db, wake: () => trelloImportRunner.wake() }),
    trelloImportRunner,
  };
}

/** While an import is unfinished, how often an instance looks whether its holder's lease ran out (idle: never). */
const TRELLO_IMPORT_POLL_MS = 5_000;

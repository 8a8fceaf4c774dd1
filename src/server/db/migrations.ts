import { sql, type CreateTableBuilder, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { DISPLAY_NAME_MAX_LENGTH, displayNameKey, nameSearchKey } from '../../common';
import type { DialectName } from './schema';

/**
 * One ordered list of migrations for both dialects. Anything dialect-specific must stay inside this
 * folder: the schema builder covers both, except search (0013), whose SQL is one list per dialect.
 */
function buildMigrations(dialect: DialectName): Record<string, Migration> {
  // An ever-increasing integer key: SQLite's AUTOINCREMENT rowid, PostgreSQL's identity column.
  const addSequenceKey = <T extends CreateTableBuilder<string, never>>(table: T): T =>
    (dialect === 'sqlite'
      ? table.addColumn('seq', 'integer', (column) => column.primaryKey().autoIncrement())
      : table.addColumn('seq', 'bigint', (column) => column.primaryKey().generatedAlwaysAsIdentity())) as T;

  return {
    '0001_accounts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('users')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('email', 'text', (column) => column.notNull())
          .addColumn('email_key', 'text', (column) => column.notNull().unique())
          .addColumn('password_hash', 'text', (column) => column.notNull())
          .addColumn('display_name', 'text', (column) => column.notNull())
          .addColumn('photo_url', 'text', (column) => column.notNull())
          .addColumn('online', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('users_display_name')
          .on('users')
          .columns(['display_name', 'id'])
          .execute();

        await db.schema
          .createTable('sessions')
          .addColumn('token_hash', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('expires_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (column) => column.primaryKey())
          .addColumn('value', 'text', (column) => column.notNull())
          .execute();

        await db.schema
          .createTable('storage_objects')
          .addColumn('bucket', 'text', (column) => column.notNull())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('generation', 'text', (column) => column.notNull())
          .addColumn('metageneration', 'integer', (column) => column.notNull())
          .addColumn('size', 'bigint', (column) => column.notNull())
          .addColumn('md5_hash', 'text', (column) => column.notNull())
          .addColumn('content_type', 'text', (column) => column.notNull())
          .addColumn('cache_control', 'text')
          .addColumn('content_disposition', 'text')
          .addColumn('content_encoding', 'text')
          .addColumn('content_language', 'text')
          .addColumn('custom_metadata', 'text')
          .addColumn('download_tokens', 'text', (column) => column.notNull())
          .addColumn('blob_key', 'text', (column) => column.notNull())
          .addColumn('owner_uid', 'text')
          .addColumn('time_created', 'text', (column) => column.notNull())
          .addColumn('updated', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('storage_objects_pk', ['bucket', 'name'])
          .execute();
        await db.schema
          .createIndex('storage_objects_owner')
          .on('storage_objects')
          .column('owner_uid')
          .execute();
      },
    },
    '0002_projects_comments_presence': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('projects')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('details', 'text', (column) => column.notNull())
          .addColumn('due_date', 'text', (column) => column.notNull())
          .addColumn('category', 'text', (column) => column.notNull())
          .addColumn('created_by', 'text', (column) => column.notNull().references('users.id'))
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('projects_created')
          .on('projects')
          .columns(['created_at', 'id'])
          .execute();
        await db.schema
          .createIndex('projects_category_created')
          .on('projects')
          .columns(['category', 'created_at', 'id'])
          .execute();

        await db.schema
          .createTable('project_assignees')
          .addColumn('project_id', 'text', (column) =>
            column.notNull().references('projects.id').onDelete('cascade'),
          )
          .addColumn('user_id', 'text', (column) => column.notNull().references('users.id'))
          .addColumn('position', 'integer', (column) => column.notNull())
          .addPrimaryKeyConstraint('project_assignees_pk', ['project_id', 'user_id'])
          .execute();
        await db.schema
          .createIndex('project_assignees_user')
          .on('project_assignees')
          .columns(['user_id', 'project_id'])
          .execute();

        await addSequenceKey(db.schema.createTable('comments'))
          .addColumn('id', 'text', (column) => column.notNull().unique())
          .addColumn('project_id', 'text', (column) =>
            column.notNull().references('projects.id').onDelete('cascade'),
          )
          .addColumn('author_id', 'text', (column) => column.notNull().references('users.id'))
          .addColumn('content', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('comments_project')
          .on('comments')
          .columns(['project_id', 'seq'])
          .execute();

        await db.schema
          .createTable('live_presence')
          .addColumn('instance_id', 'text', (column) => column.notNull())
          .addColumn('session_hash', 'text', (column) => column.notNull())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('last_seen_at', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('live_presence_pk', ['instance_id', 'session_hash'])
          .execute();
        await db.schema
          .createIndex('live_presence_user')
          .on('live_presence')
          .columns(['user_id', 'last_seen_at'])
          .execute();
      },
    },
    '0003_storage_uploads': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('storage_uploads')
          .addColumn('upload_id', 'text', (column) => column.primaryKey())
          .addColumn('bucket', 'text', (column) => column.notNull())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('owner_uid', 'text', (column) => column.notNull())
          .addColumn('metadata', 'text', (column) => column.notNull())
          .addColumn('declared_size', 'bigint', (column) => column.notNull())
          .addColumn('content_type', 'text', (column) => column.notNull())
          .addColumn('received', 'bigint', (column) => column.notNull().defaultTo(0))
          .addColumn('status', 'text', (column) => column.notNull())
          .addColumn('final_resource', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('storage_uploads_updated')
          .on('storage_uploads')
          .column('updated_at')
          .execute();
        // Listings page through names in byte order (docs/storage-protocol.md#46-list). SQLite's default BINARY
        // collation already is; PostgreSQL's depends on the cluster's locale unless the column says "C".
        if (dialect === 'postgres') {
          await sql`alter table storage_objects alter column name type text collate "C"`.execute(db);
        }
      },
    },
    '0004_user_search': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('users')
          .addColumn('search_name', 'text', (column) => column.notNull().defaultTo(''))
          .execute();
        // The key is computed in JS (Unicode normalization), so existing rows are filled in from here.
        const users = await sql<{
          id: string;
          display_name: string;
        }>`select id, display_name from users`.execute(db);
        for (const user of users.rows) {
          await sql`update users set search_name = ${nameSearchKey(user.display_name)} where id = ${user.id}`.execute(
            db,
          );
        }
      },
    },
    // Used on PostgreSQL only (SQLite counts in memory); created on both so the schemas stay the same.
    '0005_rate_limits': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('rate_limits')
          .addColumn('key', 'text', (column) => column.primaryKey())
          .addColumn('count', 'integer', (column) => column.notNull())
          .addColumn('reset_at', 'bigint', (column) => column.notNull())
          .execute();
      },
    },
    '0006_blob_key_index': {
      async up(db: Kysely<unknown>) {
        // The orphan sweep asks which blob keys rows refer to, 500 at a time.
        await db.schema
          .createIndex('storage_objects_blob_key')
          .on('storage_objects')
          .column('blob_key')
          .execute();
      },
    },
    '0010_storage_upload_reservations': {
      async up(db: Kysely<unknown>) {
        // Every upload start counts the user's open sessions and the bytes they reserve; the expiry sweep
        // finds sessions by their start.
        await db.schema
          .createIndex('storage_uploads_owner_status')
          .on('storage_uploads')
          .columns(['owner_uid', 'status'])
          .execute();
        await db.schema
          .createIndex('storage_uploads_created')
          .on('storage_uploads')
          .column('created_at')
          .execute();
      },
    },
    '0011_team_accounts': {
      async up(db: Kysely<unknown>) {
        // docs/decisions/018-team-roles.md: roles, account status, activity, invitations, reset links.
        await db.schema
          .alterTable('users')
          .addColumn('role', 'text', (column) => column.notNull().defaultTo('member'))
          .execute();
        await db.schema
          .alterTable('users')
          .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
          .execute();
        await db.schema.alterTable('users').addColumn('last_active_at', 'text').execute();
        // An existing install's first account becomes its owner, as a fresh install's first signup does.
        const first = await sql<{ id: string }>`select id from users order by created_at, id limit 1`.execute(
          db,
        );
        const owner = first.rows[0];
        if (owner) {
          await sql`update users set role = 'admin' where id = ${owner.id}`.execute(db);
          await sql`insert into settings (key, value) values ('owner', ${owner.id})`.execute(db);
        }
        await db.schema.createIndex('users_role_status').on('users').columns(['role', 'status']).execute();

        await db.schema
          .alterTable('sessions')
          .addColumn('user_agent', 'text', (column) => column.notNull().defaultTo(''))
          .execute();
        await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();

        await db.schema
          .createTable('invitations')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('token_hash', 'text', (column) => column.notNull().unique())
          .addColumn('email', 'text')
          .addColumn('max_uses', 'integer', (column) => column.notNull())
          .addColumn('uses', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('expires_at', 'text', (column) => column.notNull())
          .addColumn('revoked_at', 'text')
          .addColumn('created_by', 'text', (column) => column.notNull().references('users.id'))
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('invitations_created').on('invitations').column('created_at').execute();

        await db.schema
          .createTable('password_resets')
          .addColumn('token_hash', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('expires_at', 'text', (column) => column.notNull())
          .addColumn('used_at', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
      },
    },
    '0012_project_history': {
      async up(db: Kysely<unknown>) {
        // docs/decisions/021-project-paging.md: edits carry a version; 'Mark as Complete' keeps the project.
        await db.schema
          .alterTable('projects')
          .addColumn('version', 'integer', (column) => column.notNull().defaultTo(1))
          .execute();
        await db.schema.alterTable('projects').addColumn('updated_at', 'text').execute();
        await sql`update projects set updated_at = created_at`.execute(db);
        await db.schema.alterTable('projects').addColumn('completed_at', 'text').execute();
        await db.schema.alterTable('projects').addColumn('completed_by', 'text').execute();

        // The dashboards page through open projects only, by keyset: partial indexes hold exactly those
        // rows in each order a page can ask for, so page 2,000 costs what page 1 does.
        await db.schema.dropIndex('projects_created').execute();
        await db.schema.dropIndex('projects_category_created').execute();
        const openOnly = sql<boolean>`completed_at is null`;
        await db.schema
          .createIndex('projects_open_created')
          .on('projects')
          .columns(['created_at', 'id'])
          .where(openOnly)
          .execute();
        await db.schema
          .createIndex('projects_open_category_created')
          .on('projects')
          .columns(['category', 'created_at', 'id'])
          .where(openOnly)
          .execute();
        await db.schema
          .createIndex('projects_open_due')
          .on('projects')
          .columns(['due_date', 'id'])
          .where(openOnly)
          .execute();
        await db.schema
          .createIndex('projects_open_category_due')
          .on('projects')
          .columns(['category', 'due_date', 'id'])
          .where(openOnly)
          .execute();
        await db.schema
          .createIndex('projects_completed')
          .on('projects')
          .columns(['completed_at', 'id'])
          .where(sql<boolean>`completed_at is not null`)
          .execute();
      },
    },
    // docs/decisions/020-search.md: full-text search of project names, details and comments, kept current
    // by triggers in the same transaction as every write, whoever writes.
    '0013_search': {
      async up(db: Kysely<unknown>) {
        for (const statement of dialect === 'sqlite' ? SQLITE_SEARCH : POSTGRES_SEARCH) {
          await sql.raw(statement).execute(db);
        }
      },
    },
    '0014_comment_edits': {
      async up(db: Kysely<unknown>) {
        // An author may edit a comment; null means never edited (the page shows 'edited' otherwise).
        await db.schema.alterTable('comments').addColumn('edited_at', 'text').execute();
      },
    },
    // Notifications: one row per recipient. `dedupe_key` makes a scheduled reminder exactly-once (a second
    // instance or a restart inserting the same key is refused by the unique index).
    '0015_notifications': {
      async up(db: Kysely<unknown>) {
        await addSequenceKey(db.schema.createTable('notifications'))
          .addColumn('id', 'text', (column) => column.notNull().unique())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('project_id', 'text', (column) =>
            column.notNull().references('projects.id').onDelete('cascade'),
          )
          .addColumn('comment_id', 'text')
          .addColumn('actor_id', 'text')
          .addColumn('dedupe_key', 'text', (column) => column.unique())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('read_at', 'text')
          .execute();
        // The panel pages newest first by seq; the bell counts unread rows only.
        await db.schema
          .createIndex('notifications_user_seq')
          .on('notifications')
          .columns(['user_id', 'seq'])
          .execute();
        await db.schema
          .createIndex('notifications_user_unread')
          .on('notifications')
          .column('user_id')
          .where(sql<boolean>`read_at is null`)
          .execute();

        // A member's choice per kind; no row means the default (in the app, no email).
        await db.schema
          .createTable('notification_preferences')
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('in_app', 'integer', (column) => column.notNull())
          .addColumn('email', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('notification_preferences_pk', ['user_id', 'kind'])
          .execute();
      },
    },
    // Notification email outbox (decision 029): one row per notification to mail, unique per notification;
    // a digest's rows share its `batch_key` (user and day). Rows are claimed with a lease and marked sent.
    '0016_notification_email': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('notification_emails')
          .addColumn('notification_id', 'text', (column) =>
            column.primaryKey().references('notifications.id').onDelete('cascade'),
          )
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('batch_key', 'text', (column) => column.notNull())
          .addColumn('digest_day', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('claimed_until', 'text')
          .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('sent_at', 'text')
          .execute();
        // The sender looks only at unsent rows.
        await db.schema
          .createIndex('notification_emails_pending')
          .on('notification_emails')
          .columns(['batch_key'])
          .where(sql<boolean>`sent_at is null`)
          .execute();
      },
    },
    // docs/decisions/027-mentions-and-who-is-looking.md: who has a project open, one row per tab and instance,
    // refreshed while open; rows of a dead instance go stale and are swept.
    '0017_project_viewers': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('project_viewers')
          .addColumn('instance_id', 'text', (column) => column.notNull())
          .addColumn('viewing_id', 'text', (column) => column.notNull())
          .addColumn('project_id', 'text', (column) => column.notNull())
          .addColumn('user_id', 'text', (column) => column.notNull())
          .addColumn('last_seen_at', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('project_viewers_pk', ['instance_id', 'viewing_id'])
          .execute();
        await db.schema
          .createIndex('project_viewers_project')
          .on('project_viewers')
          .columns(['project_id', 'last_seen_at'])
          .execute();
      },
    },
    // docs/decisions/033-list-json-and-one-sync-per-write.md: a page's assignees are read per project in the order chosen,
    // from the index alone, without a sort per project.
    '0020_project_assignee_order': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createIndex('project_assignees_order')
          .on('project_assignees')
          .columns(['project_id', 'position', 'user_id'])
          .execute();
      },
    },
    // Notifications of an action that tells many people, queued by its transaction and written right after
    // its answer (docs/decisions/034-queued-notifications.md). A row lives until its notifications commit.
    '0021_notification_jobs': {
      async up(db: Kysely<unknown>) {
        await addSequenceKey(db.schema.createTable('notification_jobs'))
          .addColumn('drafts', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
      },
    },
    // docs/decisions/046-members-who-leave.md: a reset link an admin made remembers the admin, so it dies with
    // their role; no two accounts share a display name's key (the earlier account keeps the name).
    '0022_admin_links_and_name_keys': {
      async up(db: Kysely<unknown>) {
        await db.schema.alterTable('password_resets').addColumn('created_by', 'text').execute();
        await db.schema.alterTable('users').addColumn('name_key', 'text').execute();
        await renameDuplicateDisplayNames(db);
        // Deleted accounts share a placeholder name and hold no key; NULLs never collide in either engine.
        await db.schema.createIndex('users_name_key').on('users').column('name_key').unique().execute();
      },
    },
    // Issue 29's ways to sign in (docs/decisions/062-identity-and-account-linking.md): personal API tokens are
    // sessions of their own kind, so revoking, deactivating and every instance's session cache treat them alike.
    '0023_identity': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('sessions')
          .addColumn('kind', 'text', (column) => column.notNull().defaultTo('browser'))
          .execute();
        await db.schema.alterTable('sessions').addColumn('name', 'text').execute();
        await db.schema.alterTable('sessions').addColumn('scope', 'text').execute();
        await db.schema.alterTable('sessions').addColumn('token_id', 'text').execute();
        await db.schema.createIndex('sessions_token_id').on('sessions').column('token_id').unique().execute();

        await db.schema
          .createTable('external_identities')
          .addColumn('provider', 'text', (column) => column.notNull())
          .addColumn('subject', 'text', (column) => column.notNull())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('email', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('last_used_at', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('external_identities_pk', ['provider', 'subject'])
          .execute();
        await db.schema
          .createIndex('external_identities_user')
          .on('external_identities')
          .column('user_id')
          .execute();

        await db.schema
          .createTable('sign_in_flows')
          .addColumn('id_hash', 'text', (column) => column.primaryKey())
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
          .addColumn('data', 'text', (column) => column.notNull())
          .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('expires_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('sign_in_flows_expiry')
          .on('sign_in_flows')
          .column('expires_at')
          .execute();

        await db.schema
          .createTable('passkeys')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('public_key', 'text', (column) => column.notNull())
          .addColumn('counter', 'bigint', (column) => column.notNull())
          .addColumn('transports', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('last_used_at', 'text')
          .execute();
        await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();

        await db.schema
          .createTable('totp_factors')
          .addColumn('user_id', 'text', (column) =>
            column.primaryKey().references('users.id').onDelete('cascade'),
          )
          .addColumn('secret', 'text', (column) => column.notNull())
          .addColumn('confirmed_at', 'text')
          .addColumn('last_step', 'bigint')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createTable('recovery_codes')
          .addColumn('user_id', 'text', (column) =>
            column.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('code_hash', 'text', (column) => column.notNull())
          .addColumn('used_at', 'text')
          .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
          .execute();
      },
    },
    // A member's private calendar feed (docs/decisions/068-private-calendar-feed.md): one per member, found
    // by the sha256 of its secret, which is never stored; it goes with the account.
    '0024_calendar_feeds': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('calendar_feeds')
          .addColumn('user_id', 'text', (column) =>
            column.primaryKey().references('users.id').onDelete('cascade'),
          )
          .addColumn('token_hash', 'text', (column) => column.notNull().unique())
          .addColumn('scope', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
      },
    },
    // The theme a member pins (docs/decisions/069-dark-theme-and-room-to-work.md).
    '0025_appearance': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('users')
          .addColumn('theme', 'text', (column) => column.notNull().defaultTo('system'))
          .execute();
      },
    },
    // Files on projects and comments (docs/decisions/073-attachments.md); the bytes are storage objects.
    '0026_attachments': {
      async up(db: Kysely<unknown>) {
        await addSequenceKey(db.schema.createTable('attachments'))
          .addColumn('id', 'text', (column) => column.notNull().unique())
          .addColumn('project_id', 'text', (column) =>
            column.notNull().references('projects.id').onDelete('cascade'),
          )
          .addColumn('comment_id', 'text', (column) => column.references('comments.id').onDelete('set null'))
          .addColumn('uploader_id', 'text', (column) => column.notNull().references('users.id'))
          .addColumn('object_name', 'text', (column) => column.notNull().unique())
          .addColumn('name', 'text', (column) => column.notNull())
          .addColumn('size', 'bigint', (column) => column.notNull())
          .addColumn('content_type', 'text', (column) => column.notNull())
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('thumbnail_name', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('attachments_project')
          .on('attachments')
          .columns(['project_id', 'seq'])
          .execute();
      },
    },
    // Search by an attachment's file name ignores case and accents as for every other name (nameSearchKey,
    // decision 075): the folded name is kept beside the name, computed in JS (Unicode normalization).
    '0027_attachment_search_name': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('attachments')
          .addColumn('search_name', 'text', (column) => column.notNull().defaultTo(''))
          .execute();
        const attachments = await sql<{ id: string; name: string }>`select id, name from attachments`.execute(
          db,
        );
        for (const attachment of attachments.rows) {
          await sql`update attachments set search_name = ${nameSearchKey(attachment.name)} where id = ${attachment.id}`.execute(
            db,
          );
        }
      },
    },
    // Outgoing webhooks (docs/decisions/077-webhook-delivery-guarantees.md): the endpoints, and the outbox of
    // deliveries written in the transaction of the change they tell of.
    '0028_webhooks': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('webhook_endpoints')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('url', 'text', (column) => column.notNull())
          .addColumn('events', 'text', (column) => column.notNull())
          .addColumn('secret', 'text', (column) => column.notNull())
          .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
          .addColumn('consecutive_failures', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('disabled_at', 'text')
          .addColumn('disabled_reason', 'text')
          .addColumn('claimed_by', 'text')
          .addColumn('claimed_until', 'text')
          .addColumn('created_by', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .execute();
        await addSequenceKey(db.schema.createTable('webhook_deliveries'))
          .addColumn('id', 'text', (column) => column.notNull().unique())
          .addColumn('endpoint_id', 'text', (column) =>
            column.notNull().references('webhook_endpoints.id').onDelete('cascade'),
          )
          .addColumn('event', 'text', (column) => column.notNull())
          .addColumn('project_id', 'text')
          .addColumn('payload', 'text', (column) => column.notNull())
          .addColumn('status', 'text', (column) => column.notNull())
          .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text')
          .addColumn('last_attempt_at', 'text')
          .addColumn('response_status', 'integer')
          .addColumn('duration_ms', 'integer')
          .addColumn('response_excerpt', 'text')
          .addColumn('created_at', 'text', (column) => column.notNull())
          .execute();
        await db.schema
          .createIndex('webhook_deliveries_queue')
          .on('webhook_deliveries')
          .columns(['endpoint_id', 'status', 'seq'])
          .execute();
      },
    },
    // Admins' imports (docs/decisions/081-trello-import.md): a background job per import, run by one
    // instance at a time under a lease, and what each source id became, so a second run writes nothing twice.
    '0029_trello_import': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('import_jobs')
          .addColumn('id', 'text', (column) => column.primaryKey())
          .addColumn('source', 'text', (column) => column.notNull())
          .addColumn('status', 'text', (column) => column.notNull())
          .addColumn('title', 'text', (column) => column.notNull())
          .addColumn('payload', 'text', (column) => column.notNull())
          .addColumn('total_items', 'integer', (column) => column.notNull())
          .addColumn('processed_items', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('projects_created', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('comments_created', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('skipped', 'integer', (column) => column.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('claimed_by', 'text')
          .addColumn('claimed_until', 'text')
          .addColumn('created_by', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addColumn('updated_at', 'text', (column) => column.notNull())
          .addColumn('finished_at', 'text')
          .execute();
        await db.schema
          .createTable('imported_sources')
          .addColumn('kind', 'text', (column) => column.notNull())
          .addColumn('source_id', 'text', (column) => column.notNull())
          .addColumn('target_id', 'text', (column) => column.notNull())
          .addColumn('import_id', 'text', (column) => column.notNull())
          .addColumn('created_at', 'text', (column) => column.notNull())
          .addPrimaryKeyConstraint('imported_sources_pk', ['kind', 'source_id'])
          .execute();
      },
    },
  };
}

/**
 * Fills `users.name_key`. Of accounts whose names have one key, the earliest keeps its name and each later
 * one is shown as "Name (2)", "Name (3)"… so nobody already posing as another member keeps doing so.
 */
async function renameDuplicateDisplayNames(db: Kysely<unknown>): Promise<void> {
  const users = await sql<{ id: string; display_name: string }>`
    select id, display_name from users where status <> 'deleted' order by created_at, id`.execute(db);
  const taken = new Set<string>();
  for (const user of users.rows) {
    let name = user.display_name;
    for (let copy = 2; taken.has(displayNameKey(name)); copy++) {
      const suffix = ` (${copy})`;
      name = `${user.display_name.slice(0, DISPLAY_NAME_MAX_LENGTH - suffix.length).trimEnd()}${suffix}`;
    }
    taken.add(displayNameKey(name));
    await sql`update users set display_name = ${name}, search_name = ${nameSearchKey(name)},
      name_key = ${displayNameKey(name)} where id = ${user.id}`.execute(db);
  }
}

/**
 * SQLite: FTS5 tables with the `unicode61` tokenizer folding case and accents. Comments are indexed as an
 * external-content table on their stable `seq` key (nothing stored twice). Projects have no integer key
 * that survives a VACUUM, so `project_search_keys` gives each one a stable rowid for `projects_fts`, which
 * keeps its own copy of name and details.
 */
const SQLITE_SEARCH = [
  `create table project_search_keys (
     seq integer primary key autoincrement,
     project_id text not null unique
   )`,
  `create virtual table projects_fts using fts5(
     name, details, tokenize = 'unicode61 remove_diacritics 2'
   )`,
  `create virtual table comments_fts using fts5(
     content, content = 'comments', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
   )`,
  `create trigger projects_search_insert after insert on projects begin
     insert into project_search_keys (project_id) values (new.id);
     insert into projects_fts (rowid, name, details)
       select seq, new.name, new.details from project_search_keys where project_id = new.id;
   end`,
  `create trigger projects_search_update after update of name, details on projects
   when old.name is not new.name or old.details is not new.details begin
     update projects_fts set name = new.name, details = new.details
       where rowid = (select seq from project_search_keys where project_id = new.id);
   end`,
  `create trigger projects_search_delete after delete on projects begin
     delete from projects_fts where rowid = (select seq from project_search_keys where project_id = old.id);
     delete from project_search_keys where project_id = old.id;
   end`,
  `create trigger comments_search_insert after insert on comments begin
     insert into comments_fts (rowid, content) values (new.seq, new.content);
   end`,
  `create trigger comments_search_update after update of content on comments
   when old.content is not new.content begin
     insert into comments_fts (comments_fts, rowid, content) values ('delete', old.seq, old.content);
     insert into comments_fts (rowid, content) values (new.seq, new.content);
   end`,
  `create trigger comments_search_delete after delete on comments begin
     insert into comments_fts (comments_fts, rowid, content) values ('delete', old.seq, old.content);
   end`,
  `insert into project_search_keys (project_id) select id from projects order by created_at, id`,
  `insert into projects_fts (rowid, name, details)
     select keys.seq, projects.name, projects.details
     from projects join project_search_keys keys on keys.project_id = projects.id`,
  `insert into comments_fts (comments_fts) values ('rebuild')`,
];

/**
 * PostgreSQL: a weighted tsvector per project (name A, details B) and per comment (D) in two tables with
 * GIN indexes, written by plpgsql triggers and removed with their row by cascade. Text is folded by
 * `dojo_search_fold` (unaccent, punctuation to spaces, lower case) and indexed with the 'simple'
 * configuration: no stemming, no stop words, the same words in every language.
 */
const POSTGRES_SEARCH = [
  `create extension if not exists unaccent schema public`,
  `create function dojo_search_fold(text) returns text language sql immutable strict parallel safe
   as $$ select lower(regexp_replace(public.unaccent('public.unaccent'::regdictionary, $1), '[[:punct:]]+', ' ', 'g')) $$`,
  // The query: every word (folded like the text) must be there; the last one may be a prefix.
  `create function dojo_search_query(words text[]) returns tsquery language sql immutable strict parallel safe
   as $$
     select coalesce(to_tsquery('simple', string_agg(
       quote_literal(dojo_search_fold(word)) || case when position = cardinality(words) then ':*' else '' end,
       ' & ' order by position)), ''::tsquery)
     from unnest(words) with ordinality as word_list(word, position)
   $$`,
  `create table project_search (
     seq bigint generated always as identity primary key,
     project_id text not null unique references projects (id) on delete cascade,
     document tsvector not null
   )`,
  `create index project_search_document on project_search using gin (document)`,
  `create table comment_search (
     comment_seq bigint primary key references comments (seq) on delete cascade,
     project_id text not null,
     document tsvector not null
   )`,
  `create index comment_search_document on comment_search using gin (document)`,
  `create function dojo_project_search_write() returns trigger language plpgsql as $$
   begin
     insert into project_search (project_id, document)
     values (new.id, setweight(to_tsvector('simple', dojo_search_fold(new.name)), 'A')
                  || setweight(to_tsvector('simple', dojo_search_fold(new.details)), 'B'))
     on conflict (project_id) do update set document = excluded.document;
     return null;
   end $$`,
  `create trigger projects_search_insert after insert on projects
   for each row execute function dojo_project_search_write()`,
  `create trigger projects_search_update after update of name, details on projects
   for each row when (old.name is distinct from new.name or old.details is distinct from new.details)
   execute function dojo_project_search_write()`,
  `create function dojo_comment_search_write() returns trigger language plpgsql as $$
   begin
     insert into comment_search (comment_seq, project_id, document)
     values (new.seq, new.project_id, to_tsvector('simple', dojo_search_fold(new.content)))
     on conflict (comment_seq) do update set project_id = excluded.project_id, document = excluded.document;
     return null;
   end $$`,
  `create trigger comments_search_insert after insert on comments
   for each row execute function dojo_comment_search_write()`,
  `create trigger comments_search_update after update of content, project_id on comments
   for each row execute function dojo_comment_search_write()`,
  `insert into project_search (project_id, document)
     select id, setweight(to_tsvector('simple', dojo_search_fold(name)), 'A')
             || setweight(to_tsvector('simple', dojo_search_fold(details)), 'B')
     from projects order by created_at, id`,
  `insert into comment_search (comment_seq, project_id, document)
     select seq, project_id, to_tsvector('simple', dojo_search_fold(content)) from comments`,
];

export const migrationProviderFor = (dialect: DialectName): MigrationProvider => ({
  getMigrations: async () => buildMigrations(dialect),
});

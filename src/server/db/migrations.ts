import { type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * One ordered list of migrations for both dialects. Anything dialect-specific must stay inside this
 * folder; so far the schema builder covers both.
 */
const migrations: Record<string, Migration> = {
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
      await db.schema.createIndex('users_display_name').on('users').columns(['display_name', 'id']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (column) => column.primaryKey())
        .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
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
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

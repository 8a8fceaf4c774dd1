import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config/config';
import { openDatabase } from '../db/database';
import type { BlobStore } from '../storage/stores/blob-store';
import { createBlobStore } from '../storage/stores/create-blob-store';
import {
  ARCHIVE_FORMAT,
  ArchiveError,
  CONTENT_KEY_PREFIX,
  readVerifiedArchive,
  writeArchive,
  type Manifest,
} from './archive';
import {
  DELETION_HOLD_PREFIX,
  insertAll,
  lastMigration,
  nonEmptyTables,
  readSnapshot,
  releaseDeletionHold,
  type ExportedTable,
  type TableRow,
} from './backup-repository';

/** Long enough for any export; a crashed export's hold ends by itself then. */
const DELETION_HOLD_MS = 6 * 60 * 60 * 1000;

/** Runs `use` with the install's file storage (disk or S3, as the server opens it) unless one is given. */
async function withInstallBlobs<T>(
  config: Config,
  given: BlobStore | undefined,
  use: (blobs: BlobStore) => Promise<T>,
): Promise<T> {
  if (given) return use(given);
  const opened = await createBlobStore(config.blobStorage, config.dataDir);
  try {
    return await use(opened.blobs);
  } finally {
    opened.close();
  }
}

export interface ExportOptions {
  /** The install's file storage, when the caller has it open already. */
  blobs?: BlobStore;
  /** Test-only seam: runs once the snapshot is taken, before any file is read. */
  afterSnapshot?: () => Promise<void>;
  /**
   * Leaves out everything that keeps a sign-in alive or lets one be made without a password, so that
   * everybody is signed out on restore (docs/decisions/044-secrets-out-of-logs-and-backups.md).
   */
  withoutSessions?: boolean;
}

/**
 * Writes a consistent snapshot of the install (running or not) to `out`: every exported table from one
 * read transaction, and every stored file its rows refer to. Writes go on meanwhile.
 */
export async function exportInstall(
  config: Config,
  out: string,
  options: ExportOptions = {},
): Promise<Manifest> {
  return withInstallBlobs(config, options.blobs, (blobs) => exportWith(config, out, blobs, options));
}

async function exportWith(
  config: Config,
  out: string,
  blobs: BlobStore,
  { afterSnapshot = () => Promise.resolve(), withoutSessions = false }: ExportOptions,
): Promise<Manifest> {
  const source = { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  const holdKey = `${DELETION_HOLD_PREFIX}${randomUUID()}`;
  const holdUntil = new Date(Date.now() + DELETION_HOLD_MS).toISOString();
  try {
    const snapshot = await readSnapshot(source, holdKey, holdUntil);
    await afterSnapshot();
    snapshot.tables.settings = snapshot.tables.settings.filter(
      (row) => !String(row.key).startsWith(DELETION_HOLD_PREFIX),
    );
    if (withoutSessions) withoutSignIns(snapshot.tables);
    const contentKeys = new Map<string, { hash: string; size: number }>();
    for (const row of snapshot.tables.storage_objects) {
      const blobKey = String(row.blob_key);
      if (!contentKeys.has(blobKey)) contentKeys.set(blobKey, await hashBlob(blobs, blobKey));
    }
    const files = new Map<string, { size: number; read: () => AsyncIterable<Uint8Array> }>();
    for (const [blobKey, { hash, size }] of contentKeys) {
      files.set(hash, { size, read: () => blobs.read(blobKey) });
    }
    snapshot.tables.storage_objects = snapshot.tables.storage_objects.map((row) => ({
      ...row,
      blob_key: `${CONTENT_KEY_PREFIX}${contentKeys.get(String(row.blob_key))?.hash ?? ''}`,
    }));
    return await writeArchive(out, {
      manifest: {
        format: ARCHIVE_FORMAT,
        schemaVersion: snapshot.schemaVersion,
        createdAt: new Date().toISOString(),
        ...(withoutSessions ? { withoutSessions: true as const } : {}),
      },
      tables: snapshot.tables,
      files,
    });
  } finally {
    await releaseDeletionHold(source, holdKey);
  }
}

/**
 * `settings` keys of the secrets that sign credentials: id tokens and App Check tokens. A restore
 * without them makes new ones, so a token minted before the export (or by whoever reads the archive)
 * is worthless. The unsubscribe key stays: it signs in nobody, and the links in mail already sent
 * keep working.
 */
const CREDENTIAL_KEY_SETTINGS = new Set(['id_token_hmac_key', 'app_check_hmac_key']);

/**
 * Sessions (and the presence rows named by them), unused password-reset links, calendar feed addresses
 * (docs/decisions/068-private-calendar-feed.md) and the keys that sign credentials: what lets anyone in, or
 * read projects, without a password. Accounts, their password hashes, invitations and all content stay.
 */
function withoutSignIns(tables: Record<ExportedTable, TableRow[]>): void {
  tables.sessions = [];
  tables.live_presence = [];
  tables.password_resets = [];
  tables.calendar_feeds = [];
  tables.settings = tables.settings.filter((row) => !CREDENTIAL_KEY_SETTINGS.has(String(row.key)));
}

async function hashBlob(blobs: BlobStore, key: string): Promise<{ hash: string; size: number }> {
  const hasher = createHash('sha256');
  let size = 0;
  for await (const chunk of blobs.read(key)) {
    hasher.update(chunk as Uint8Array);
    size += (chunk as Uint8Array).length;
  }
  return { hash: hasher.digest('hex'), size };
}

/**
 * Imports an archive into an EMPTY install (database and storage from `config`). The whole archive is
 * verified first; then the files are stored and every row inserted in one transaction. Throws
 * `ArchiveError` (nothing imported) for a damaged archive or a non-empty install.
 */
export async function importInstall(
  config: Config,
  archive: string,
  givenBlobs?: BlobStore,
): Promise<Manifest> {
  return withInstallBlobs(config, givenBlobs, (blobs) => importWith(config, archive, blobs));
}

async function importWith(config: Config, archive: string, blobs: BlobStore): Promise<Manifest> {
  const workDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'dojo-import-'));
  try {
    const verified = await readVerifiedArchive(archive, workDir);
    const handle = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    try {
      const schemaVersion = await lastMigration(handle.db);
      if (schemaVersion !== verified.manifest.schemaVersion) {
        throw new ArchiveError(
          `The archive was made at schema ${verified.manifest.schemaVersion} and this install is at ` +
            `${schemaVersion}: import it with the release that made it, then upgrade.`,
        );
      }
      const nonEmpty = await nonEmptyTables(handle.db);
      if (nonEmpty.length > 0) {
        throw new ArchiveError(
          `Refusing to import into an install that already has data (tables ${nonEmpty.join(', ')}): ` +
            `import into an empty DATA_DIR / DATABASE_URL.`,
        );
      }
      const stored = new Map<string, string>();
      try {
        for (const [hash, file] of verified.files) {
          stored.set(hash, (await blobs.write(fs.createReadStream(file))).key);
        }
        verified.tables.storage_objects = verified.tables.storage_objects.map((row) => ({
          ...row,
          blob_key: stored.get(String(row.blob_key).slice(CONTENT_KEY_PREFIX.length)),
        }));
        await insertAll(handle.db, handle.dialect, verified.tables);
      } catch (error) {
        // Nothing refers to these bytes now; remove them rather than leave them to the orphan sweep.
        for (const key of stored.values()) await blobs.delete(key).catch(() => undefined);
        throw error;
      }
    } finally {
      await handle.close();
    }
    return verified.manifest;
  } finally {
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}

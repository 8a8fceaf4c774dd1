import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { PRIVATE_FILE_MODE } from '../core/private-files';
import { EXPORTED_TABLES, type ExportedTable, type TableRow } from './backup-repository';

/**
 * The archive: a gzipped tar of `tables/<table>.jsonl` (one canonical JSON row a line, lines sorted),
 * `files/<sha256>` (each stored file once, named by its content) and `manifest.json` last, so an archive
 * cut short has no manifest. In `storage_objects`, `blob_key` holds `sha256:<hex>` of the file's content:
 * blob keys belong to one store, and an import stores each file anew under a key of the target's.
 */
export const ARCHIVE_FORMAT = 'the-dojo-export/1';
export const CONTENT_KEY_PREFIX = 'sha256:';

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  /** The last migration of the exported install; an import needs the same. */
  schemaVersion: string;
  createdAt: string;
  /** Made with `--without-sessions`: a restore signs everybody out. */
  withoutSessions?: true;
  tables: Record<ExportedTable, { rows: number; sha256: string }>;
  /** By the file's sha256 (hex). */
  files: Record<string, { size: number }>;
}

/** Thrown for an archive that cannot be imported; the message says why, for the operator. */
export class ArchiveError extends Error {}

/** One row as one line: keys sorted, so the same row gives the same bytes on either engine. */
function canonicalLine(row: TableRow): string {
  const sorted = Object.fromEntries(
    Object.keys(row)
      .sort()
      .map((key) => [key, row[key] ?? null]),
  );
  return JSON.stringify(sorted);
}

/** A table's entry: its canonical lines, sorted, each ending with a newline. */
export function tableData(rows: TableRow[]): Buffer {
  const lines = rows.map(canonicalLine).sort();
  return Buffer.from(lines.map((line) => `${line}\n`).join(''));
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface ArchiveContent {
  manifest: Omit<Manifest, 'tables' | 'files'>;
  tables: Record<ExportedTable, TableRow[]>;
  /** Content hash → the file's bytes (read lazily, one at a time). */
  files: Map<string, { size: number; read: () => AsyncIterable<Uint8Array> }>;
}

/**
 * Writes the archive to `file` (through a temporary name, renamed once complete). It grants admin access
 * (password hashes, sessions, signing keys), so the bytes only ever land in a file of mode 0600: the
 * temporary one is made anew (never a leftover reopened with its old mode) and set to 0600 whatever the
 * umask, and the rename replaces any older `file` with it.
 */
export async function writeArchive(file: string, content: ArchiveContent): Promise<Manifest> {
  const temporary = `${file}.partial`;
  await fs.promises.rm(temporary, { force: true });
  const handle = await fs.promises.open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    const manifest = await writeArchiveTo(handle.createWriteStream(), content);
    await fs.promises.rename(temporary, file);
    return manifest;
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function writeArchiveTo(out: fs.WriteStream, content: ArchiveContent): Promise<Manifest> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), out);
  try {
    return await packArchive(pack, content, written);
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  }
}

async function packArchive(
  pack: tar.Pack,
  content: ArchiveContent,
  written: Promise<void>,
): Promise<Manifest> {
  const tables: Partial<Manifest['tables']> = {};
  for (const table of EXPORTED_TABLES) {
    const data = tableData(content.tables[table]);
    tables[table] = { rows: content.tables[table].length, sha256: sha256(data) };
    await addEntry(pack, `tables/${table}.jsonl`, data);
  }
  const files: Manifest['files'] = {};
  for (const [hash, stored] of content.files) {
    // Streamed, not buffered: stored files can be large. A file that no longer matches its hash makes
    // the export fail (the partial archive is never renamed into place).
    const hasher = createHash('sha256');
    const entry = pack.entry({ name: `files/${hash}`, size: stored.size, mode: 0o600 });
    await pipeline(
      stored.read(),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          hasher.update(chunk);
          yield chunk;
        }
      },
      entry,
    );
    if (hasher.digest('hex') !== hash) throw new Error(`stored file ${hash} changed while it was exported`);
    files[hash] = { size: stored.size };
  }
  const manifest: Manifest = { ...content.manifest, tables: tables as Manifest['tables'], files };
  await addEntry(pack, 'manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)));
  pack.finalize();
  await written;
  return manifest;
}

function addEntry(pack: tar.Pack, name: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: data.length, mode: 0o600 }, data, (error) =>
      error ? reject(error) : resolve(),
    );
  });
}

export interface VerifiedArchive {
  manifest: Manifest;
  tables: Record<ExportedTable, TableRow[]>;
  /** Content hash → path of the verified file in `workDir`. */
  files: Map<string, string>;
}

/**
 * Reads the whole archive into `workDir` and checks everything before anything is imported: the gzip and
 * tar framing, the manifest, every table's hash and row count, every file's hash and size, and that
 * nothing is missing or extra. Throws `ArchiveError` with the reason.
 */
export async function readVerifiedArchive(file: string, workDir: string): Promise<VerifiedArchive> {
  const tableBytes = new Map<string, Buffer>();
  const fileHashes = new Map<string, { size: number; sha256: string; path: string }>();
  let manifestBytes: Buffer | undefined;
  const extract = tar.extract();
  const done = pipeline(fs.createReadStream(file), createGunzip(), extract);
  const entries = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (name === 'manifest.json' || name.startsWith('tables/')) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        if (name === 'manifest.json') manifestBytes = Buffer.concat(chunks);
        else tableBytes.set(name.slice('tables/'.length).replace(/\.jsonl$/, ''), Buffer.concat(chunks));
      } else if (/^files\/[0-9a-f]{64}$/.test(name)) {
        const target = path.join(workDir, name.slice('files/'.length));
        const hash = createHash('sha256');
        let size = 0;
        const out = fs.createWriteStream(target, { mode: 0o600 });
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve, reject) =>
          out.end((error?: Error | null) => (error ? reject(error) : resolve())),
        );
        fileHashes.set(name.slice('files/'.length), { size, sha256: hash.digest('hex'), path: target });
      } else {
        throw new ArchiveError(
          `The archive ${file} has an unexpected entry '${name}': not an export of The Dojo.`,
        );
      }
    }
  })();
  await Promise.all([done, entries]).catch((error: unknown) => {
    if (error instanceof ArchiveError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ArchiveError(`The archive ${file} is damaged or cut short (${reason}).`);
  });

  if (!manifestBytes) {
    throw new ArchiveError(
      `The archive ${file} has no manifest: it is cut short or not an export of The Dojo.`,
    );
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as Manifest;
  } catch {
    throw new ArchiveError(`The archive ${file} has an unreadable manifest.`);
  }
  if (manifest.format !== ARCHIVE_FORMAT) {
    throw new ArchiveError(`The archive ${file} is not in the format ${ARCHIVE_FORMAT}.`);
  }
  const tables: Partial<Record<ExportedTable, TableRow[]>> = {};
  for (const table of EXPORTED_TABLES) {
    const data = tableBytes.get(table);
    const expected = manifest.tables[table];
    if (!data || !expected) throw new ArchiveError(`The archive ${file} lacks the table ${table}.`);
    if (sha256(data) !== expected.sha256) {
      throw new ArchiveError(`The archive ${file} is corrupt: table ${table} does not match its sha256.`);
    }
    const lines = data
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '');
    if (lines.length !== expected.rows) {
      throw new ArchiveError(
        `The archive ${file} is corrupt: table ${table} has ${lines.length} rows, not ${expected.rows}.`,
      );
    }
    tables[table] = lines.map((line) => JSON.parse(line) as TableRow);
  }
  const files = new Map<string, string>();
  for (const [hash, expected] of Object.entries(manifest.files)) {
    const found = fileHashes.get(hash);
    if (!found) throw new ArchiveError(`The archive ${file} lacks the stored file ${hash}.`);
    if (found.sha256 !== hash || found.size !== expected.size) {
      throw new ArchiveError(
        `The archive ${file} is corrupt: stored file ${hash} does not match its sha256 or size.`,
      );
    }
    files.set(hash, found.path);
  }
  if (fileHashes.size !== files.size) {
    throw new ArchiveError(`The archive ${file} holds stored files its manifest does not list.`);
  }
  for (const row of tables.storage_objects ?? []) {
    const key = String(row.blob_key);
    if (!key.startsWith(CONTENT_KEY_PREFIX) || !files.has(key.slice(CONTENT_KEY_PREFIX.length))) {
      throw new ArchiveError(`The archive ${file} refers to a stored file it does not hold (${key}).`);
    }
  }
  return { manifest, tables: tables as Record<ExportedTable, TableRow[]>, files };
}

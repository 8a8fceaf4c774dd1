/**
 * `npm run import:firebase -- --users users.json --hash-key KEY --salt-separator SEP --rounds N --mem-cost N
 * [--profiles users-collection.json] [--projects projects.json] [--storage-origin URL]`: moves the original
 * Firebase app's accounts, profiles, projects, comments and pictures in, with the same configuration as the
 * server (DATA_DIR, DATABASE_URL, storage settings). Stop the server first. See docs/firebase-import.md.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  FIREBASE_MEM_COST,
  FIREBASE_ROUNDS,
  type FirebaseHashParameters,
} from '../src/server/auth/passwords';
import { ConfigError, loadConfig } from '../src/server/config/config';
import type { Logger } from '../src/server/core/logger';
import { LocalChangeBus } from '../src/server/db/change-bus';
import { openDatabase } from '../src/server/db/database';
import { UnitOfWork } from '../src/server/db/unit-of-work';
import {
  FirebaseAuthExportSchema,
  FirebaseImportError,
  parseExportFile,
  ProfilesCollectionSchema,
  ProjectsCollectionSchema,
} from '../src/server/firebase-import/firebase-export-formats';
import { FirebaseImportService, formatSummary } from '../src/server/firebase-import/firebase-import-service';
import { FIREBASE_STORAGE_ORIGIN } from '../src/server/firebase-import/firebase-storage-pictures';
import { createServices } from '../src/server/services';
import { ProfileThumbnails } from '../src/server/users/profile-thumbnails';

const USAGE =
  'Usage: npm run import:firebase -- --users users.json --hash-key BASE64 --salt-separator BASE64 ' +
  '--rounds N --mem-cost N [--profiles users-collection.json] [--projects projects.json] [--storage-origin URL]';

/** Strict standard base64, as the Firebase console shows the hash parameters. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function base64Option(name: string, value: string | undefined): Buffer {
  if (value === undefined) throw new FirebaseImportError(`--${name} is required.\n${USAGE}`);
  if (!BASE64.test(value))
    throw new FirebaseImportError(`--${name} must be base64, as the Firebase console shows it`);
  return Buffer.from(value, 'base64');
}

function integerOption(name: string, value: string | undefined, range: { min: number; max: number }): number {
  if (value === undefined) throw new FirebaseImportError(`--${name} is required.\n${USAGE}`);
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < range.min || number > range.max) {
    throw new FirebaseImportError(`--${name} must be a whole number from ${range.min} to ${range.max}`);
  }
  return number;
}

async function readOption(option: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new FirebaseImportError(
      `${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
}

function storageOrigin(value: string | undefined): string {
  if (value === undefined) return FIREBASE_STORAGE_ORIGIN;
  try {
    const url = new URL(value);
    if ((url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '')) {
      return url.origin;
    }
  } catch {
    // Refused below.
  }
  throw new FirebaseImportError(
    '--storage-origin must be an origin such as https://firebasestorage.googleapis.com',
  );
}

const consoleLogger: Logger = {
  error: (details, message) => console.error(message, details),
  warn: (details, message) => console.warn(message, details),
  info: () => undefined,
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      'hash-key': { type: 'string' },
      'salt-separator': { type: 'string' },
      rounds: { type: 'string' },
      'mem-cost': { type: 'string' },
      profiles: { type: 'string' },
      projects: { type: 'string' },
      'storage-origin': { type: 'string' },
    },
  });
  if (!values.users) throw new FirebaseImportError(`--users is required.\n${USAGE}`);
  const hash: FirebaseHashParameters = {
    signerKey: base64Option('hash-key', values['hash-key']),
    saltSeparator: base64Option('salt-separator', values['salt-separator']),
    rounds: integerOption('rounds', values.rounds, FIREBASE_ROUNDS),
    memCost: integerOption('mem-cost', values['mem-cost'], FIREBASE_MEM_COST),
  };
  // Every file is read and checked before the database is even opened: a bad one writes nothing.
  const authExport = parseExportFile(
    `--users ${values.users}`,
    await readOption('--users', values.users),
    FirebaseAuthExportSchema,
  );
  const profiles = values.profiles
    ? parseExportFile(
        `--profiles ${values.profiles}`,
        await readOption('--profiles', values.profiles),
        ProfilesCollectionSchema,
      )
    : undefined;
  const projects = values.projects
    ? parseExportFile(
        `--projects ${values.projects}`,
        await readOption('--projects', values.projects),
        ProjectsCollectionSchema,
      )
    : undefined;
  const origin = storageOrigin(values['storage-origin']);

  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const bus = new LocalChangeBus();
    const services = await createServices({ config, database, bus, log: consoleLogger });
    try {
      const importer = new FirebaseImportService({
        db: database.db,
        writes: new UnitOfWork({ db: database.db, changes: bus }),
        thumbnails: new ProfileThumbnails(services.storage),
      });
      const summary = await importer.run({ authExport, hash, profiles, projects, storageOrigin: origin });
      await database.durable();
      console.log(formatSummary(summary));
    } finally {
      services.blobStore.close();
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof FirebaseImportError || error instanceof ConfigError) console.error(error.message);
  else
    console.error(
      'The Firebase import failed; nothing was imported:',
      error instanceof Error ? error.message : error,
    );
  process.exitCode = 1;
});

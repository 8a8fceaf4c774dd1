import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds password hashes, token signing keys and every user's files: only the server's own
 * user may read it. Modes are given explicitly where things are created (the process umask is the
 * operator's, and a library should not change it for the whole process).
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** How deep `preparePrivateDataDir` looks for loose modes: DATA_DIR's entries and theirs. */
const TIGHTEN_DEPTH = 2;

export interface TightenedPath {
  path: string;
  from: string;
  to: string;
}

const octal = (mode: number): string => `0${(mode & 0o777).toString(8)}`;

/**
 * Creates DATA_DIR 0700, or tightens an existing one whose modes let group or others in: DATA_DIR, its
 * entries and theirs (the database and its -wal/-shm, the storage directories). Blob files deeper down
 * are not walked (there can be very many); with DATA_DIR at 0700 nobody else can reach them. Returns
 * what was changed, for the caller to log.
 */
export function preparePrivateDataDir(dataDir: string): TightenedPath[] {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const tightened: TightenedPath[] = [];
  const visit = (target: string, depth: number): void => {
    const stat = fs.lstatSync(target, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      // The owner's bits stay as they are: 0755 becomes 0700, 0644 becomes 0600.
      const mode = stat.mode & 0o700;
      fs.chmodSync(target, mode);
      tightened.push({ path: target, from: octal(stat.mode), to: octal(mode) });
    }
    if (stat.isDirectory() && depth < TIGHTEN_DEPTH) {
      for (const entry of fs.readdirSync(target)) visit(path.join(target, entry), depth + 1);
    }
  };
  visit(dataDir, 0);
  return tightened;
}

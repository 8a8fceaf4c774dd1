import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chown, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

/**
 * A throwaway PostgreSQL cluster for one test run: initdb into a temp dir, start on a free 127.0.0.1
 * port, trust auth, fsync off (unless `durable`). PostgreSQL refuses to run as root, so as root the binaries run as the
 * `postgres` system user (Debian's package creates it); otherwise they run as the current user.
 */
export interface PostgresCluster {
  /** Admin connection URL, e.g. `postgres://postgres@127.0.0.1:41234/postgres`. */
  url: string;
  port: number;
  dir: string;
  /** Stops the server at once and deletes the cluster's files. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * `pg_ctl restart -m fast`, as a stop then a start: every connection is terminated, `whileDown` runs
   * while nothing listens, and it resolves once the server accepts connections again.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

const POSTGRES_INSTALL_COMMAND = 'apt-get update && apt-get install -y postgresql';

const POSTGRES_LIB_DIR = '/usr/lib/postgresql';
const PREFERRED_MAJOR = '15';

/** The `bin` dir of the installed PostgreSQL: version 15 if present, else the newest one. */
export function findPostgresBinDir(): string {
  const candidates = existsSync(POSTGRES_LIB_DIR)
    ? readdirSync(POSTGRES_LIB_DIR)
        .filter((version) => existsSync(path.join(POSTGRES_LIB_DIR, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = candidates.includes(PREFERRED_MAJOR) ? PREFERRED_MAJOR : candidates[0];
  if (version === undefined) {
    throw new Error(
      `PostgreSQL server binaries not found under ${POSTGRES_LIB_DIR}/*/bin. ` +
        `Install them with: ${POSTGRES_INSTALL_COMMAND}`,
    );
  }
  return path.join(POSTGRES_LIB_DIR, version, 'bin');
}

interface RunAs {
  uid: number;
  gid: number;
}

function postgresUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid <= 0) {
    throw new Error(
      'Running as root, but there is no `postgres` system user to run PostgreSQL as. ' +
        `Install the server package with: ${POSTGRES_INSTALL_COMMAND}`,
    );
  }
  return { uid, gid };
}

function run(file: string, args: string[], cwd: string, runAs: RunAs | undefined): Promise<string> {
  // A clean environment: PG* variables of the caller must not leak into the throwaway cluster.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: cwd,
  };
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env, ...runAs, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`${path.basename(file)} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      } else {
        resolve(stdout);
      }
    });
  });
}

export interface PostgresClusterOptions {
  /**
   * Keep PostgreSQL's stock durability (fsync, synchronous_commit, full_page_writes on), as a production
   * server runs: benchmarks use it so write figures include the commit flush. Tests leave it off.
   */
  durable?: boolean;
}

export async function startPostgresCluster(
  clusterOptions: PostgresClusterOptions = {},
): Promise<PostgresCluster> {
  const binDir = findPostgresBinDir();
  const runAs = postgresUser();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dojo-pg-'));
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const pgCtl = path.join(binDir, 'pg_ctl');
  let stopped = false;

  // Last resort if the process dies without calling stop(): never leave a postmaster behind.
  const stopOnExit = (): void => {
    if (stopped) return;
    spawnSync(pgCtl, ['-D', dataDir, 'stop', '-m', 'immediate'], { cwd: dir, ...runAs, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  };

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopOnExit);
    try {
      await run(pgCtl, ['-D', dataDir, 'stop', '-m', 'immediate', '-w'], dir, runAs);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    await mkdir(dataDir, { mode: 0o700 });
    if (runAs) {
      await chown(dir, runAs.uid, runAs.gid);
      await chown(dataDir, runAs.uid, runAs.gid);
    }
    await run(
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8'],
      dir,
      runAs,
    );
    process.on('exit', stopOnExit);

    // Another process may grab the port between picking and binding it; try a few times.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort();
      const options = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        ...(clusterOptions.durable
          ? []
          : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
        '-c max_connections=300',
      ].join(' ');
      try {
        // -l: the postmaster must not inherit our stdio, or execFile would wait for it to exit.
        await run(
          pgCtl,
          ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'],
          dir,
          runAs,
        );
        const restart = async (whileDown?: () => Promise<void>): Promise<void> => {
          await run(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'], dir, runAs);
          try {
            await whileDown?.();
          } finally {
            await run(
              pgCtl,
              ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start'],
              dir,
              runAs,
            );
          }
        };
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop, restart };
      } catch (error) {
        const log = await readFile(logFile, 'utf8').catch(() => '');
        lastError = new Error(`${(error as Error).message}\n--- postgres.log ---\n${log}`);
      }
    }
    throw lastError;
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackupInstall } from '../../../test/support/backup-install';
import { createProjectAs, signUpClient } from '../../../test/support/clients';
import { makePng, storedBlobFiles } from '../../../test/support/fixtures';
import { startTestServer, type TestServer } from '../../../test/support/test-server';
import { openDatabase } from '../db/database';
import { loadConfig } from '../config/config';
import { ArchiveError } from './archive';
import { nonEmptyTables } from './backup-repository';
import { exportInstall, importInstall } from './backup-service';

let server: TestServer;
let workDir: string;
let archive: string;
let avatarUrl: string;
let oldAvatar: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  workDir = await mkdtemp(path.join(os.tmpdir(), 'dojo-archive-'));
  archive = path.join(workDir, 'dojo.tar.gz');
  const writer = await signUpClient(server.url, 'Archivist');
  await createProjectAs(writer, { name: 'Kept', details: 'In the archive', category: 'sales' });
  avatarUrl = writer.user.photoURL;
  oldAvatar = Buffer.from(await (await fetch(`${server.url}${avatarUrl}`)).arrayBuffer());
  const sourceConfig = loadConfig({
    DATA_DIR: server.dataDir,
    ...(server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : {}),
  });
  // Between the snapshot and the reading of the files, the app replaces the avatar and deletes the old
  // blob's row; the export's hold keeps the bytes, so the archive still has them.
  await exportInstall(sourceConfig, archive, {
    afterSnapshot: async () => {
      await writer.client.account.updateProfile({
        thumbnail: new Blob([new Uint8Array(makePng(300))], { type: 'image/png' }),
        fileName: 'new.png',
      });
      expect((await fetch(`${server.url}${avatarUrl}`)).status).toBe(401);
    },
  });
});

afterAll(async () => {
  await server.stop();
  await rm(workDir, { recursive: true, force: true });
});

describe('export while the app deletes blobs', () => {
  it('keeps a blob the snapshot refers to, deleted by the app during the export', async () => {
    const target = await createBackupInstall();
    try {
      await importInstall(target.config, archive);
      const imported = await startTestServer({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
      try {
        const download = await fetch(`${imported.url}${avatarUrl}`);
        expect(download.status).toBe(200);
        expect(Buffer.from(await download.arrayBuffer()).equals(oldAvatar)).toBe(true);
      } finally {
        await imported.app.close();
      }
    } finally {
      await target.remove();
    }
  });
});

/** Rewrites the archive with `change` applied to each entry's bytes. */
async function rewriteArchive(from: string, to: string, change: (name: string, data: Buffer) => Buffer) {
  const extract = tar.extract();
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), fs.createWriteStream(to));
  const read = pipeline(fs.createReadStream(from), createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    const data = change(entry.header.name, Buffer.concat(chunks));
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: entry.header.name, size: data.length }, data, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }
  await read;
  pack.finalize();
  await written;
}

async function expectRefusedAndNothingImported(file: string, message: RegExp) {
  const target = await createBackupInstall();
  try {
    const error = await importInstall(target.config, file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toMatch(message);
    const handle = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    try {
      expect(await nonEmptyTables(handle.db)).toEqual([]);
    } finally {
      await handle.close();
    }
    expect(storedBlobFiles(target.dataDir)).toEqual([]);
  } finally {
    await target.remove();
  }
}

describe('import refuses a bad archive and imports nothing', () => {
  it('refuses an archive whose table data was altered', async () => {
    const altered = path.join(workDir, 'altered.tar.gz');
    await rewriteArchive(archive, altered, (name, data) =>
      name === 'tables/projects.jsonl' ? Buffer.from(data.toString().replace('Kept', 'Kapt')) : data,
    );
    await expectRefusedAndNothingImported(altered, /corrupt: table projects does not match its sha256/);
  });

  it('refuses an archive whose stored file was altered', async () => {
    const altered = path.join(workDir, 'altered-file.tar.gz');
    await rewriteArchive(archive, altered, (name, data) => {
      if (!name.startsWith('files/')) return data;
      const copy = Buffer.from(data);
      copy[copy.length - 1] = (copy[copy.length - 1] ?? 0) ^ 0xff;
      return copy;
    });
    await expectRefusedAndNothingImported(altered, /corrupt: stored file [0-9a-f]{64} does not match/);
  });

  it('refuses a truncated archive', async () => {
    const bytes = fs.readFileSync(archive);
    const truncated = path.join(workDir, 'truncated.tar.gz');
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectRefusedAndNothingImported(truncated, /damaged or cut short|no manifest/);
  });

  it('refuses to import into an install that has data', async () => {
    const target = await createBackupInstall();
    try {
      await importInstall(target.config, archive);
      await expect(importInstall(target.config, archive)).rejects.toThrow(
        /Refusing to import into an install that already has data \(tables users/,
      );
    } finally {
      await target.remove();
    }
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WalSync } from './wal-sync';

function walSyncOnTempFile(): WalSync {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'wal-sync-')), 'dojo.sqlite-wal');
  writeFileSync(file, 'wal');
  return new WalSync(file);
}

describe('WalSync.syncSince', () => {
  it('shares a sync that started after the mark instead of starting another', async () => {
    const walSync = walSyncOnTempFile();
    const mark = walSync.mark();
    const answers = walSync.sync();
    expect(walSync.syncSince(mark)).toBe(answers);
    await answers;
    await walSync.syncSince(mark);
    // Both waited on the one sync the answer started.
    expect(walSync.mark()).toBe(mark + 1);
    await walSync.close();
  });

  it('waits for a newer sync when the running one started before the mark', async () => {
    const walSync = walSyncOnTempFile();
    const earlier = walSync.sync();
    const mark = walSync.mark();
    const covering = walSync.syncSince(mark);
    expect(covering).not.toBe(earlier);
    await covering;
    expect(walSync.mark()).toBe(mark + 1);
    await walSync.close();
  });

  it('starts a sync when none started since the mark', async () => {
    const walSync = walSyncOnTempFile();
    const mark = walSync.mark();
    await walSync.syncSince(mark);
    expect(walSync.mark()).toBe(mark + 1);
    await walSync.close();
  });
});

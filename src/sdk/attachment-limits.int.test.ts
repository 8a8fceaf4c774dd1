import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attachmentMessages, attachmentSizeProblem } from '../common/attachments';
import { startAttachmentUpload } from './attachments';
import { isStorageError } from './storage';
import { attachFile, attachmentsOf, storedBlobKeys, storedUploads } from '../../test/support/attachments';
import { createProjectAs, type SignedInClient } from '../../test/support/clients';
import { useTestTeam } from '../../test/support/test-team';

/**
 * The per-file limit and the quota (docs/decisions/073-attachments.md): shown before an upload, enforced
 * by the storage rules on the server for small (multipart) and large (resumable) uploads alike, and a
 * refused file leaves nothing in the store. Runs on SQLite, PostgreSQL and S3.
 */
const MAX_FILE_BYTES = 300_000;
const QUOTA_BYTES = 700_000;
const team = useTestTeam(
  { ada: 'Ada', bob: 'Bob' },
  { configOverrides: { attachmentMaxBytes: MAX_FILE_BYTES, storageQuotaBytes: QUOTA_BYTES } },
);

const fileOf = (size: number, name = 'data.bin') => new File([new Uint8Array(randomBytes(size))], name);

/** Starts the upload and waits for its refusal. */
async function refusalOf(member: SignedInClient, projectId: string, file: File): Promise<unknown> {
  const { task } = startAttachmentUpload(member.client.storage, projectId, member.user.uid, file);
  return task.then(
    () => new Error('the upload was not refused'),
    (error: unknown) => error,
  );
}

describe('limits', () => {
  it('are shown before an upload, and the same check the server makes says why a file cannot go', async () => {
    const limits = await attachmentsOf(team.ada).limits();
    expect(limits).toMatchObject({ maxFileBytes: MAX_FILE_BYTES, quotaBytes: QUOTA_BYTES });
    expect(limits.usedBytes).toBeGreaterThan(0); // the avatar
    expect(attachmentSizeProblem(MAX_FILE_BYTES + 1, limits)).toBe(attachmentMessages.tooBig(MAX_FILE_BYTES));
    expect(
      attachmentSizeProblem(QUOTA_BYTES - limits.usedBytes + 1, { ...limits, maxFileBytes: QUOTA_BYTES }),
    ).toBe(attachmentMessages.overQuota);
    expect(attachmentSizeProblem(1000, limits)).toBeNull();
  });

  it('a file over the per-file limit is refused, resumable or not, and stores nothing', async () => {
    const project = await createProjectAs(team.ada, {});
    const blobsBefore = new Set(await storedBlobKeys(team.server));
    const usedBefore = (await attachmentsOf(team.ada).limits()).usedBytes;

    // Over 256 KiB: a resumable upload, refused at its start by its declared size.
    const resumable = await refusalOf(team.ada, project.id, fileOf(MAX_FILE_BYTES + 1));
    expect(isStorageError(resumable, 'unauthorized')).toBe(true);

    expect((await storedBlobKeys(team.server)).filter((key) => !blobsBefore.has(key))).toEqual([]);
    expect(await storedUploads(team.server)).toEqual([]);
    expect((await attachmentsOf(team.ada).limits()).usedBytes).toBe(usedBefore);
    expect(await attachmentsOf(team.ada).list(project.id)).toEqual([]);
  });

  it('a file over the quota is refused, small or large, and stores nothing', async () => {
    const project = await createProjectAs(team.bob, {});
    const kept = await attachFile(team.bob, project.id, fileOf(MAX_FILE_BYTES, 'first.bin'));
    await attachFile(team.bob, project.id, fileOf(MAX_FILE_BYTES, 'second.bin'));
    const blobsBefore = new Set(await storedBlobKeys(team.server));
    const limits = await attachmentsOf(team.bob).limits();
    const room = limits.quotaBytes - limits.usedBytes;
    expect(room).toBeLessThan(MAX_FILE_BYTES);

    const large = await refusalOf(team.bob, project.id, fileOf(Math.min(MAX_FILE_BYTES, 262_145)));
    expect(isStorageError(large, 'quota-exceeded')).toBe(true);
    const small = await refusalOf(team.bob, project.id, fileOf(room + 1));
    expect(isStorageError(small, 'quota-exceeded')).toBe(true);

    expect((await storedBlobKeys(team.server)).filter((key) => !blobsBefore.has(key))).toEqual([]);
    expect(await storedUploads(team.server)).toEqual([]);
    expect((await attachmentsOf(team.bob).limits()).usedBytes).toBe(limits.usedBytes);

    // Deleting an attachment gives its bytes back to the quota.
    await attachmentsOf(team.bob).delete(kept.id);
    expect((await attachmentsOf(team.bob).limits()).usedBytes).toBe(limits.usedBytes - MAX_FILE_BYTES);
    await attachFile(team.bob, project.id, fileOf(room + 1, 'fits now.bin'));
  });
});

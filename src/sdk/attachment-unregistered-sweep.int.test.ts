import { describe, expect, it } from 'vitest';
import { startAttachmentUpload } from './attachments';
import { getMetadata, isStorageError, ref, uploadBytes } from './storage';
import { attachFile, attachmentsOf, storedBlobKeys } from '../../test/support/attachments';
import { createProjectAs } from '../../test/support/clients';
import { pollUntil, WAIT_MS } from '../../test/support/poll';
import { useTestTeam } from '../../test/support/test-team';

/**
 * Uploads to an attachment area that are never registered (a tab closed between the two steps) are
 * deleted once older than the grace, bytes and row, so they stop counting against the uploader's quota
 * (docs/decisions/075-attachment-server-follow-ups.md). The grace is a few seconds here and the sweep runs
 * every 100 ms; a registered attachment and a file outside the attachment areas stay.
 */
const GRACE_MS = 4_000;
const team = useTestTeam(
  { bob: 'Bob Creator', cid: 'Cid Uploader' },
  { configOverrides: { attachmentUnregisteredGraceMs: GRACE_MS, attachmentSweepIntervalMs: 100 } },
);

const bytesOf = (length: number, fill: number) => new Uint8Array(length).fill(fill);
const gone = (objectName: string) =>
  getMetadata(ref(team.cid.client.storage, objectName)).then(
    () => false,
    (error: unknown) => isStorageError(error) && error.code === 'storage/object-not-found',
  );

describe('unregistered attachment uploads', () => {
  it('are deleted after the grace and free the quota; registered ones and other files stay', async () => {
    const project = await createProjectAs(team.bob, { name: 'Left behind' });
    const ownFile = `files/${team.cid.user.uid}/notes.txt`;
    await uploadBytes(ref(team.cid.client.storage, ownFile), bytesOf(1_000, 0x61));
    const registered = await attachFile(team.cid, project.id, new File([bytesOf(2_000, 0x62)], 'kept.txt'));

    const usedBefore = (await attachmentsOf(team.cid).limits()).usedBytes;
    const keysBefore = new Set(await storedBlobKeys(team.server));
    const left = startAttachmentUpload(
      team.cid.client.storage,
      project.id,
      team.cid.user.uid,
      new File([bytesOf(3_000, 0x63)], 'closed tab.txt'),
    );
    await left.task;
    const leftKeys = (await storedBlobKeys(team.server)).filter((key) => !keysBefore.has(key));
    expect(leftKeys).toHaveLength(1);

    await pollUntil(
      () => gone(left.objectName),
      GRACE_MS + WAIT_MS,
      () => 'the unregistered upload was not swept',
    );
    await pollUntil(
      async () => !(await storedBlobKeys(team.server)).includes(leftKeys[0] ?? ''),
      WAIT_MS,
      () => 'the unregistered upload’s bytes stayed in the store',
    );
    // The quota counts what it counted before the upload left behind: the avatar, the file, the attachment.
    expect((await attachmentsOf(team.cid).limits()).usedBytes).toBe(usedBefore);
    expect(await gone(ownFile)).toBe(false);
    const listed = await attachmentsOf(team.bob).list(project.id);
    expect(listed.map((attachment) => attachment.id)).toEqual([registered.id]);
    const content = await fetch(attachmentsOf(team.bob).contentUrl(registered.id), {
      headers: { cookie: team.bob.client.transport.cookieHeader() ?? '' },
    });
    expect(content.status).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBe(2_000);
  });
});

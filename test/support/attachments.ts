import type { Attachment } from '../../src/common/attachments';
import { AttachmentsClient, startAttachmentUpload } from '../../src/sdk/attachments';
import { storedIds, storedUploadIds, withBlobStore } from '../../src/server/storage/testing/storage-http';
import type { SignedInClient } from './clients';
import type { TestServer } from './test-server';

export const attachmentsOf = (member: SignedInClient): AttachmentsClient =>
  new AttachmentsClient(member.client.transport);

/** Uploads `file` as `member` through the storage protocol, then registers it on the project (or comment). */
export async function attachFile(
  member: SignedInClient,
  projectId: string,
  file: File,
  commentId?: string,
): Promise<Attachment> {
  const { task, objectName } = startAttachmentUpload(member.client.storage, projectId, member.user.uid, file);
  await task;
  return attachmentsOf(member).register(projectId, { objectName, ...(commentId ? { commentId } : {}) });
}

/** Every blob in the test server's store (disk or S3), by key: what a deletion must leave behind. */
export const storedBlobKeys = (server: Pick<TestServer, 'config'>): Promise<string[]> =>
  withBlobStore(server, (blobs) => storedIds(blobs.listBlobs()));

/** The resumable uploads that hold bytes in the store: none once a refused upload is gone. */
export const storedUploads = storedUploadIds;

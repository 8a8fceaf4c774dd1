import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { messages } from '../common';
import {
  attachmentMessages,
  attachmentObjectName,
  projectAttachmentsQuery,
  type Attachment,
} from '../common/attachments';
import { startAttachmentUpload } from './attachments';
import { deleteObject, isStorageError, ref, updateMetadata, uploadBytes } from './storage';
import { createProjectAs, errorOf, LiveRecorder, type SignedInClient } from '../../test/support/clients';
import { useTestTeam } from '../../test/support/test-team';
import { attachFile as attach, attachmentsOf, storedBlobKeys } from '../../test/support/attachments';

/**
 * Attachments end to end (docs/decisions/073-attachments.md): bytes through the storage protocol, then
 * registered; types sniffed from the bytes; thumbnails by sharp; permissions; deletion with the project.
 * Runs on SQLite, PostgreSQL and (the integration-s3 project) with bytes in S3.
 */
const team = useTestTeam({ ada: 'Ada Admin', bob: 'Bob Creator', cid: 'Cid Uploader', dee: 'Dee Other' });

const jpeg = () =>
  sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();
const png = () =>
  sharp({ create: { width: 640, height: 960, channels: 4, background: '#ff0000' } })
    .png()
    .toBuffer();

/** A GET of an attachment URL with the member's session cookie, as the browser sends it. */
function fetchAs(member: SignedInClient | null, url: string): Promise<Response> {
  const cookie = member?.client.transport.cookieHeader();
  return fetch(url, { headers: cookie ? { cookie } : {} });
}

const blobKeys = (): Promise<string[]> => storedBlobKeys(team.server);

describe('attach, list and follow live', () => {
  it('a JPEG attached by one member appears live for another, with a sharp thumbnail', async () => {
    const project = await createProjectAs(team.bob, { name: 'Mock-ups' });
    const live = new LiveRecorder<Attachment>(team.dee.client, projectAttachmentsQuery(project.id));
    await live.until((docs) => docs.length === 0, undefined, 'the empty list');

    const image = await jpeg();
    const attached = await attach(team.cid, project.id, new File([new Uint8Array(image)], 'front page.jpg'));
    expect(attached).toMatchObject({
      projectId: project.id,
      commentId: null,
      name: 'front page.jpg',
      size: image.length,
      contentType: 'image/jpeg',
      kind: 'image',
      uploaderId: team.cid.user.uid,
      uploaderName: 'Cid Uploader',
      hasThumbnail: true,
    });
    await live.until((docs) => docs.some((doc) => doc.id === attached.id), undefined, 'the new attachment');
    live.unsubscribe();

    const listed = await attachmentsOf(team.dee).list(project.id);
    expect(listed.map((attachment) => attachment.id)).toEqual([attached.id]);

    const thumbnail = await fetchAs(team.dee, attachmentsOf(team.dee).thumbnailUrl(attached.id));
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    const thumbnailMeta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect(thumbnailMeta).toMatchObject({ format: 'webp', width: 320, height: 213 });

    const content = await fetchAs(team.dee, attachmentsOf(team.dee).contentUrl(attached.id));
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/jpeg');
    expect(content.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''front%20page.jpg");
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await content.arrayBuffer()).equals(image)).toBe(true);
  });

  it('a PNG declared as anything gets its type from its bytes; a newer attachment is listed first', async () => {
    const project = await createProjectAs(team.bob, {});
    const first = await attach(team.bob, project.id, new File(['plain words\n'], 'notes.txt'));
    const image = await attach(
      team.bob,
      project.id,
      new File([new Uint8Array(await png())], 'scan', { type: 'application/x-whatever' }),
    );
    expect(image).toMatchObject({ contentType: 'image/png', kind: 'image', hasThumbnail: true });
    const thumbnail = await fetchAs(team.bob, attachmentsOf(team.bob).thumbnailUrl(image.id));
    expect(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).toMatchObject({
      width: 213,
      height: 320,
    });
    expect(first).toMatchObject({
      contentType: 'text/plain; charset=utf-8',
      kind: 'text',
      hasThumbnail: false,
    });
    expect((await attachmentsOf(team.ada).list(project.id)).map((each) => each.id)).toEqual([
      image.id,
      first.id,
    ]);
    const noThumbnail = await fetchAs(team.bob, attachmentsOf(team.bob).thumbnailUrl(first.id));
    expect(noThumbnail.status).toBe(404);
  });

  it('attaches to a comment of the caller only', async () => {
    const project = await createProjectAs(team.bob, {});
    const comment = await team.cid.client.projects.addComment(project.id, { content: 'See the file' });
    const onComment = await attach(
      team.cid,
      project.id,
      new File(['%PDF-1.4\n%%EOF\n'], 'brief.pdf'),
      comment.id,
    );
    expect(onComment).toMatchObject({ commentId: comment.id, kind: 'pdf', contentType: 'application/pdf' });

    const { task, objectName } = startAttachmentUpload(
      team.dee.client.storage,
      project.id,
      team.dee.user.uid,
      new File(['x'], 'x.txt'),
    );
    await task;
    const refused = await errorOf(() =>
      attachmentsOf(team.dee).register(project.id, { objectName, commentId: comment.id }),
    );
    expect(refused).toMatchObject({ status: 403, message: attachmentMessages.commentNotYours });
  });
});

describe('what the browser is given', () => {
  it('HTML disguised as a PNG is a download of application/octet-stream', async () => {
    const project = await createProjectAs(team.bob, {});
    const html = '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>';
    const attached = await attach(team.cid, project.id, new File([html], 'photo.png', { type: 'image/png' }));
    expect(attached).toMatchObject({
      kind: 'other',
      contentType: 'application/octet-stream',
      hasThumbnail: false,
    });

    const content = await fetchAs(team.dee, attachmentsOf(team.dee).contentUrl(attached.id));
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''photo.png");
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await content.text()).toBe(html);
  });

  it('another binary format is named by its bytes (file-type), and is still a download', async () => {
    const project = await createProjectAs(team.bob, { name: 'Archives' });
    const sevenZip = new Uint8Array([
      0x37,
      0x7a,
      0xbc,
      0xaf,
      0x27,
      0x1c,
      0,
      4,
      ...new Array<number>(56).fill(0),
    ]);
    const attached = await attach(
      team.cid,
      project.id,
      new File([sevenZip], 'photo.jpg', { type: 'image/jpeg' }),
    );
    expect(attached).toMatchObject({ contentType: 'application/x-7z-compressed', kind: 'other' });
    const content = await fetchAs(team.dee, attachmentsOf(team.dee).contentUrl(attached.id));
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''photo.jpg");
    expect((await content.arrayBuffer()).byteLength).toBe(sevenZip.length);
  });

  it('an SVG is a download, and a name with quotes and line breaks cannot break the header', async () => {
    const project = await createProjectAs(team.bob, {});
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const attached = await attach(team.cid, project.id, new File([svg], 'a"b;\r\nc.svg'));
    expect(attached.kind).toBe('other');
    const content = await fetchAs(team.cid, attachmentsOf(team.cid).contentUrl(attached.id));
    expect(content.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''a%22b%3Bc.svg");
  });
});

describe('range requests', () => {
  it('answer 206 with the part asked for, 416 past the end, and the whole file for several ranges', async () => {
    const project = await createProjectAs(team.bob, { name: 'Seekable' });
    const bytes = new Uint8Array(100_000).map((_, index) => index % 251);
    const attached = await attach(team.cid, project.id, new File([bytes], 'numbers.bin'));
    const url = attachmentsOf(team.dee).contentUrl(attached.id);
    const get = (headers: Record<string, string>) =>
      fetch(url, { headers: { cookie: team.dee.client.transport.cookieHeader() ?? '', ...headers } });

    const whole = await get({});
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const etag = whole.headers.get('etag') ?? '';
    await whole.arrayBuffer();

    const middle = await get({ range: 'bytes=1000-1999' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 1000-1999/100000');
    expect(middle.headers.get('content-length')).toBe('1000');
    expect(middle.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''numbers.bin");
    expect(Buffer.from(await middle.arrayBuffer()).equals(Buffer.from(bytes.subarray(1000, 2000)))).toBe(
      true,
    );

    const tail = await get({ range: 'bytes=-10', 'if-range': etag });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe('bytes 99990-99999/100000');
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(bytes.subarray(99_990)))).toBe(true);

    const open = await get({ range: 'bytes=99000-' });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(1000);

    const past = await get({ range: 'bytes=100000-100010' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */100000');
    await past.arrayBuffer();

    const notOneCurrentRange: Record<string, string>[] = [
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=0-1', 'if-range': '"an older one"' },
    ];
    for (const headers of notOneCurrentRange) {
      const full = await get(headers);
      expect(full.status).toBe(200);
      expect((await full.arrayBuffer()).byteLength).toBe(100_000);
    }
  });
});

describe('permissions', () => {
  it('the uploader, the project creator and an admin may delete; another member may not', async () => {
    const project = await createProjectAs(team.bob, {});
    const file = () => new File(['bytes'], 'f.txt');
    const [byUploader, byCreator, byAdmin] = [
      await attach(team.cid, project.id, file()),
      await attach(team.cid, project.id, file()),
      await attach(team.cid, project.id, file()),
    ];
    const refused = await errorOf(() => attachmentsOf(team.dee).delete(byUploader.id));
    expect(refused).toMatchObject({ status: 403, message: attachmentMessages.mayNotDelete });

    await attachmentsOf(team.cid).delete(byUploader.id);
    await attachmentsOf(team.bob).delete(byCreator.id);
    await attachmentsOf(team.ada).delete(byAdmin.id);
    expect(await attachmentsOf(team.dee).list(project.id)).toEqual([]);
    const gone = await errorOf(() => attachmentsOf(team.cid).delete(byUploader.id));
    expect(gone).toMatchObject({ status: 404, message: attachmentMessages.notFound });
    expect((await fetchAs(team.cid, attachmentsOf(team.cid).contentUrl(byUploader.id))).status).toBe(404);
  });

  it("nobody registers or writes another's upload; the storage rules refuse what the API would", async () => {
    const project = await createProjectAs(team.bob, {});
    const { task, objectName } = startAttachmentUpload(
      team.cid.client.storage,
      project.id,
      team.cid.user.uid,
      new File(['mine'], 'mine.txt'),
    );
    await task;
    const notYours = await errorOf(() => attachmentsOf(team.dee).register(project.id, { objectName }));
    expect(notYours).toMatchObject({ status: 403, message: attachmentMessages.notAllowed });
    const elsewhere = await errorOf(() =>
      attachmentsOf(team.cid).register((project.id === 'x' ? 'y' : 'x').repeat(8), { objectName }),
    );
    expect(elsewhere).toMatchObject({ status: 404, message: attachmentMessages.uploadNotFound });
    const missing = await errorOf(() =>
      attachmentsOf(team.cid).register(project.id, {
        objectName: attachmentObjectName(project.id, team.cid.user.uid, 'nothere', 'none.txt'),
      }),
    );
    expect(missing).toMatchObject({ status: 404, message: attachmentMessages.uploadNotFound });

    // Into another's folder of the project: the storage rules refuse the bytes.
    const intruder = ref(
      team.dee.client.storage,
      attachmentObjectName(project.id, team.cid.user.uid, 'abc', 'evil.txt'),
    );
    await expect(uploadBytes(intruder, new Uint8Array([1]))).rejects.toSatisfy((error) =>
      isStorageError(error, 'unauthorized'),
    );
    // The uploader's own object: written once, deleted only through the attachments API.
    const own = ref(team.cid.client.storage, objectName);
    await expect(uploadBytes(own, new Uint8Array([1]))).rejects.toSatisfy((error) =>
      isStorageError(error, 'unauthorized'),
    );
    await expect(updateMetadata(own, { contentType: 'text/html' })).rejects.toSatisfy((error) =>
      isStorageError(error, 'unauthorized'),
    );
    await expect(deleteObject(own)).rejects.toSatisfy((error) => isStorageError(error, 'unauthorized'));

    const attached = await attachmentsOf(team.cid).register(project.id, { objectName });
    const twice = await errorOf(() => attachmentsOf(team.cid).register(project.id, { objectName }));
    expect(twice).toMatchObject({ status: 409, message: attachmentMessages.alreadyAttached });

    for (const url of [
      `${team.server.url}/api/projects/${project.id}/attachments`,
      attachmentsOf(team.cid).contentUrl(attached.id),
      attachmentsOf(team.cid).thumbnailUrl(attached.id),
      `${team.server.url}/api/attachments/limits`,
    ]) {
      expect((await fetchAs(null, url)).status).toBe(401);
    }
  });

  it('a completed project keeps its files, but takes no new ones', async () => {
    const project = await createProjectAs(team.bob, {});
    const kept = await attach(team.bob, project.id, new File(['kept'], 'kept.txt'));
    await team.bob.client.projects.complete(project.id);
    expect((await attachmentsOf(team.dee).list(project.id)).map((each) => each.id)).toEqual([kept.id]);
    const { task } = startAttachmentUpload(
      team.bob.client.storage,
      project.id,
      team.bob.user.uid,
      new File(['late'], 'late.txt'),
    );
    await expect(task).rejects.toSatisfy((error) => isStorageError(error, 'unauthorized'));
    const content = await fetchAs(team.dee, attachmentsOf(team.dee).contentUrl(kept.id));
    expect(await content.text()).toBe('kept');
  });
});

describe('deleting a project', () => {
  it('deletes its attachments, thumbnails and unregistered uploads from the store', async () => {
    const project = await createProjectAs(team.bob, {});
    const before = new Set(await blobKeys());
    const image = await attach(team.cid, project.id, new File([new Uint8Array(await jpeg())], 'a.jpg'));
    await attach(team.bob, project.id, new File(['text'], 'b.txt'));
    const { task } = startAttachmentUpload(
      team.dee.client.storage,
      project.id,
      team.dee.user.uid,
      new File(['never registered'], 'c.txt'),
    );
    await task;
    const added = (await blobKeys()).filter((key) => !before.has(key));
    // The image, its thumbnail, the text and the unregistered upload.
    expect(added).toHaveLength(4);

    await team.bob.client.projects.complete(project.id);
    await team.bob.client.projects.deleteForGood(project.id);
    const left = new Set(await blobKeys());
    expect(added.filter((key) => left.has(key))).toEqual([]);
    expect((await fetchAs(team.bob, attachmentsOf(team.bob).contentUrl(image.id))).status).toBe(404);
    const list = await errorOf(() => attachmentsOf(team.bob).list(project.id));
    expect(list).toMatchObject({ status: 404, message: messages.projectNotFound });
  });
});

describe('search', () => {
  it("finds a project by an attachment's file name, after the projects its text finds", async () => {
    const word = `quarterly${Date.now().toString(36)}`;
    const byName = await createProjectAs(team.bob, { name: `The ${word} plan` });
    const byFile = await createProjectAs(team.bob, { name: 'Numbers' });
    await attach(team.cid, byFile.id, new File(['figures'], `${word.toUpperCase()}-Report.txt`));
    const results = await team.dee.client.projects.search(`${word} report`);
    expect(results).toEqual([
      expect.objectContaining({
        id: byFile.id,
        field: 'attachment',
        snippet: `${word.toUpperCase()}-Report.txt`,
      }),
    ]);
    const both = await team.dee.client.projects.search(word);
    expect(both.map((result) => [result.id, result.field])).toEqual([
      [byName.id, 'name'],
      [byFile.id, 'attachment'],
    ]);
  });

  it('ignores case and accents beyond ASCII in a file name, as for every other name', async () => {
    const tag = Date.now().toString(36);
    const project = await createProjectAs(team.bob, { name: `Letters ${tag}` });
    await attach(team.cid, project.id, new File(['x'], `ÄRGER-Brief-${tag}.txt`));
    for (const query of [`ärger ${tag}`, `Arger ${tag}`, `ÄRGER brief ${tag}`]) {
      const results = await team.dee.client.projects.search(query);
      expect(results.map((result) => [result.id, result.field])).toEqual([[project.id, 'attachment']]);
    }
  });
});

describe('notifications', () => {
  it("tell the project's creator and assignees of a new file, but not the uploader or who opted out", async () => {
    await team.ada.client.notifications.updatePreferences({
      preferences: [{ kind: 'attached', inApp: false, email: 'off' }],
    });
    const project = await createProjectAs(team.bob, {
      assignedUserIds: [team.ada.user.uid, team.dee.user.uid, team.cid.user.uid],
    });
    await attach(team.cid, project.id, new File(['x'], 'told.txt'));
    const toldOf = async (member: SignedInClient) =>
      (await member.client.notifications.page({ limit: 100 })).notifications.filter(
        (notification) => notification.kind === 'attached' && notification.projectId === project.id,
      );
    await expect.poll(async () => (await toldOf(team.bob)).length).toBe(1);
    await expect.poll(async () => (await toldOf(team.dee)).length).toBe(1);
    expect(await toldOf(team.cid)).toEqual([]);
    expect(await toldOf(team.ada)).toEqual([]);
  });
});

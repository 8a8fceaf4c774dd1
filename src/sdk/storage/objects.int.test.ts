import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_MAX_BYTES } from '../../common/limits';
import { newClient, signUpClient, type SignedInClient } from '../../../test/support/clients';
import { makePng, SVG_IMAGE } from '../../../test/support/fixtures';
import { startTestServer, testDatabaseEngine, type TestServer } from '../../../test/support/test-server';
import { sha256 } from './integration.testing';
import {
  deleteObject,
  getDownloadURL,
  getMetadata,
  list,
  updateMetadata,
  uploadBytes,
  uploadBytesResumable,
} from './operations';
import { ref } from './reference';
import { createStorage } from './service';
import type { StorageError } from './storage-error';
import type { UploadData } from './upload-data';

/**
 * Object calls and the storage rules against the real server: who may write where, what a thumbnail may
 * be, the quota, signed-out callers, download URLs, metadata round trips and awkward names.
 */
let server: TestServer;
let alice: SignedInClient;
let bob: SignedInClient;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([signUpClient(server.url, 'alice'), signUpClient(server.url, 'bob')]);
  alice.client.close();
  bob.client.close();
});
afterAll(async () => {
  await server?.stop();
});

/**
 * The message without the server's reason phrase, which follows on a line of its own
 * (docs/storage-protocol.md §8.1).
 */
const firstLine = (text: string) =>
  expect.stringMatching(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\n|$)`));

const filesOf = (user: SignedInClient, name: string) => `files/${user.user.uid}/${name}`;
const thumbnailOf = (user: SignedInClient, name: string) => `thumbnails/${user.user.uid}/${name}`;
const storageOf = (user: SignedInClient) => user.client.storage;

/** Both ways to upload: one multipart request, and the task (resumable when over 256 KiB). */
const uploaders = [
  ['uploadBytes', (target: ReturnType<typeof ref>, data: UploadData) => uploadBytes(target, data)],
  [
    'uploadBytesResumable',
    async (target: ReturnType<typeof ref>, data: UploadData) =>
      (await uploadBytesResumable(target, data)).ref,
  ],
] as const;

async function fetchBytes(url: string): Promise<{ status: number; bytes: Uint8Array }> {
  const response = await fetch(url);
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe(`storage rules through the SDK (${testDatabaseEngine()})`, () => {
  it.each(uploaders)(
    "%s into another user's files/ folder: storage/unauthorized (403)",
    async (_name, upload) => {
      for (const size of [10, 300_000]) {
        const path = filesOf(bob, `from-alice-${size}.bin`);
        await expect(upload(ref(storageOf(alice), path), randomBytes(size))).rejects.toMatchObject({
          code: 'storage/unauthorized',
          status: 403,
          message: firstLine(
            `Firebase Storage: User does not have permission to access '${path}'. (storage/unauthorized)`,
          ),
        });
      }
      await expect(getMetadata(ref(storageOf(bob), filesOf(bob, 'from-alice-10.bin')))).rejects.toMatchObject(
        {
          code: 'storage/object-not-found',
        },
      );
    },
  );

  it('writing outside files/{uid}/ and thumbnails/{uid}/ is refused', async () => {
    await expect(uploadBytes(ref(storageOf(alice), 'elsewhere/x.txt'), randomBytes(5))).rejects.toMatchObject(
      {
        code: 'storage/unauthorized',
      },
    );
    await expect(
      uploadBytes(ref(storageOf(alice), `files/${alice.user.uid}`), randomBytes(5)),
    ).rejects.toMatchObject({ code: 'storage/unauthorized' });
  });

  it('a thumbnail must be a raster image by its bytes (not SVG, not text, whatever the declared type)', async () => {
    const svg = new Blob([new Uint8Array(SVG_IMAGE)], { type: 'image/svg+xml' });
    await expect(uploadBytes(ref(storageOf(alice), thumbnailOf(alice, 'x.svg')), svg)).rejects.toMatchObject({
      code: 'storage/unauthorized',
      status: 403,
    });
    const text = new Blob(['not an image'], { type: 'image/png' });
    await expect(uploadBytes(ref(storageOf(alice), thumbnailOf(alice, 'x.png')), text)).rejects.toMatchObject(
      {
        code: 'storage/unauthorized',
      },
    );
    const png = new Blob([new Uint8Array(makePng())], { type: 'image/png' });
    const { metadata } = await uploadBytes(ref(storageOf(alice), thumbnailOf(alice, 'ok.png')), png);
    expect(metadata.contentType).toBe('image/png');
  });

  it.each(uploaders)('%s of a thumbnail over 100000 bytes: storage/unauthorized', async (_name, upload) => {
    const exact = makePng(THUMBNAIL_MAX_BYTES);
    expect(exact.byteLength).toBe(THUMBNAIL_MAX_BYTES);
    await upload(ref(storageOf(alice), thumbnailOf(alice, 'exact.png')), new Uint8Array(exact));
    for (const size of [THUMBNAIL_MAX_BYTES + 1, 400_000]) {
      const png = makePng(size);
      await expect(
        upload(ref(storageOf(alice), thumbnailOf(alice, `big-${size}.png`)), new Uint8Array(png)),
      ).rejects.toMatchObject({ code: 'storage/unauthorized', status: 403 });
    }
  });

  it('another user may not write into my thumbnails/ folder', async () => {
    await expect(
      uploadBytes(ref(storageOf(bob), thumbnailOf(alice, 'evil.png')), new Uint8Array(makePng())),
    ).rejects.toMatchObject({ code: 'storage/unauthorized' });
  });

  it('signed out: every call is storage/unauthenticated (401)', async () => {
    const stranger = newClient(server.url);
    await stranger.auth.whenReady();
    const message =
      'Firebase Storage: User is not authenticated, please authenticate using Firebase Authentication and try again. (storage/unauthenticated)';
    const { ref: existing } = await uploadBytes(
      ref(storageOf(alice), filesOf(alice, 'seen.txt')),
      randomBytes(3),
    );
    const target = ref(stranger.storage, existing.fullPath);
    await expect(uploadBytes(target, randomBytes(3))).rejects.toMatchObject({
      code: 'storage/unauthenticated',
      status: 401,
      message: firstLine(message),
    });
    await expect(uploadBytesResumable(target, randomBytes(300_000))).rejects.toMatchObject({
      code: 'storage/unauthenticated',
    });
    await expect(getMetadata(target)).rejects.toMatchObject({ code: 'storage/unauthenticated' });
    await expect(list(ref(stranger.storage, 'files'))).rejects.toMatchObject({
      code: 'storage/unauthenticated',
    });
    stranger.close();
  });

  it('a user who logs out becomes unauthenticated for storage too', async () => {
    const carol = await signUpClient(server.url, 'carol');
    carol.client.close();
    await uploadBytes(ref(storageOf(carol), filesOf(carol, 'a.txt')), randomBytes(3));
    await carol.client.auth.logOut();
    await expect(
      uploadBytes(ref(storageOf(carol), filesOf(carol, 'b.txt')), randomBytes(3)),
    ).rejects.toMatchObject({
      code: 'storage/unauthenticated',
    });
  });
});

describe(`quota (${testDatabaseEngine()})`, () => {
  let small: TestServer;
  let dave: SignedInClient;

  beforeAll(async () => {
    small = await startTestServer({ configOverrides: { storageQuotaBytes: 1_000_000 } });
    dave = await signUpClient(small.url, 'dave');
    dave.client.close();
  });
  afterAll(async () => {
    await small?.stop();
  });

  it('uploads past the quota fail with storage/quota-exceeded (402), multipart and resumable', async () => {
    await uploadBytes(ref(storageOf(dave), filesOf(dave, 'first.bin')), randomBytes(700_000));
    const quotaMessage =
      "Firebase Storage: Quota for bucket 'dojo' exceeded, please view quota on https://firebase.google.com/pricing/. (storage/quota-exceeded)";
    await expect(
      uploadBytes(ref(storageOf(dave), filesOf(dave, 'second.bin')), randomBytes(400_000)),
    ).rejects.toMatchObject({
      code: 'storage/quota-exceeded',
      status: 402,
      message: firstLine(quotaMessage),
    });
    await expect(
      uploadBytesResumable(ref(storageOf(dave), filesOf(dave, 'third.bin')), randomBytes(400_000)),
    ).rejects.toMatchObject({ code: 'storage/quota-exceeded', status: 402 });
    // What fits still goes in; deleting frees space.
    await uploadBytes(ref(storageOf(dave), filesOf(dave, 'small.bin')), randomBytes(200_000));
    await deleteObject(ref(storageOf(dave), filesOf(dave, 'first.bin')));
    await uploadBytesResumable(ref(storageOf(dave), filesOf(dave, 'after-delete.bin')), randomBytes(700_000));
  });
});

describe(`App Check (${testDatabaseEngine()})`, () => {
  let enforced: TestServer;
  let erin: SignedInClient;

  beforeAll(async () => {
    enforced = await startTestServer({ configOverrides: { appCheckEnforced: true } });
    erin = await signUpClient(enforced.url, 'erin');
    erin.client.close();
  });
  afterAll(async () => {
    await enforced?.stop();
  });

  const storageWith = (getAppCheckToken?: () => Promise<string>) =>
    createStorage({
      baseUrl: enforced.url,
      bucket: 'dojo',
      getToken: () => erin.client.auth.getIdToken(),
      getAppCheckToken,
    });

  it('a valid App Check token is sent in X-Firebase-AppCheck and accepted', async () => {
    const appCheck = async () => {
      const response = await fetch(`${enforced.url}/api/app-check/token`, { method: 'POST' });
      expect(response.status).toBe(200);
      return ((await response.json()) as { token: string }).token;
    };
    const { metadata } = await uploadBytes(
      ref(storageWith(appCheck), filesOf(erin, 'checked.txt')),
      randomBytes(8),
    );
    expect(metadata.size).toBe(8);
  });

  it('an invalid or missing token is storage/unauthorized-app: the 401 reason phrase says so (Node too)', async () => {
    const message =
      'Firebase Storage: This app does not have permission to access Firebase Storage on this project. (storage/unauthorized-app)';
    for (const storage of [storageWith(async () => 'forged'), storageWith()]) {
      const error = await getMetadata(ref(storage, filesOf(erin, 'checked.txt'))).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({
        code: 'storage/unauthorized-app',
        status: 401,
        message: firstLine(message),
      });
      expect((error as StorageError).serverResponse).toContain('Firebase App Check token is invalid');
    }
  });
});

describe(`objects: download URLs, metadata, delete, names (${testDatabaseEngine()})`, () => {
  it('getDownloadURL gives a URL anyone can fetch without signing in', async () => {
    const data = randomBytes(123_456);
    const target = ref(storageOf(alice), filesOf(alice, 'shared.bin'));
    await uploadBytes(target, data);
    const url = await getDownloadURL(target);
    expect(
      url.startsWith(`${server.url}/v0/b/dojo/o/${encodeURIComponent(target.fullPath)}?alt=media&token=`),
    ).toBe(true);
    const { status, bytes } = await fetchBytes(url);
    expect(status).toBe(200);
    expect(sha256(bytes)).toBe(sha256(data));
    // Any signed-in user gets the same URL; without the token a stranger is refused.
    expect(await getDownloadURL(ref(storageOf(bob), target.fullPath))).toBe(url);
    expect((await fetch(url.replace(/&token=.*$/, ''))).status).toBe(401);
    // The URL parses back into the same reference.
    expect(ref(storageOf(bob), url).fullPath).toBe(target.fullPath);
  });

  it('getMetadata / updateMetadata round trip: set, merge, remove with null', async () => {
    const target = ref(storageOf(alice), filesOf(alice, 'meta.txt'));
    const uploaded = await uploadBytes(target, new Blob(['hello'], { type: 'text/plain' }), {
      cacheControl: 'no-cache',
      customMetadata: { a: '1', b: '2' },
    });
    expect(uploaded.metadata).toMatchObject({
      type: 'file',
      bucket: 'dojo',
      fullPath: target.fullPath,
      name: 'meta.txt',
      size: 5,
      contentType: 'text/plain',
      cacheControl: 'no-cache',
      customMetadata: { a: '1', b: '2' },
      metageneration: '1',
    });
    expect(uploaded.metadata.ref?.fullPath).toBe(target.fullPath);

    const updated = await updateMetadata(target, {
      cacheControl: null,
      contentLanguage: 'en',
      customMetadata: { a: null, c: '3' },
    });
    expect(updated).toMatchObject({
      cacheControl: undefined,
      contentLanguage: 'en',
      contentType: 'text/plain',
      customMetadata: { b: '2', c: '3' },
      metageneration: '2',
      generation: uploaded.metadata.generation,
    });
    expect(await getMetadata(target)).toEqual(updated);

    const cleared = await updateMetadata(target, { customMetadata: null, contentType: 'text/markdown' });
    expect(cleared.customMetadata).toBeUndefined();
    expect(cleared.contentType).toBe('text/markdown');
    expect(cleared.metageneration).toBe('3');
  });

  it('another user may read metadata but not change or delete it', async () => {
    const target = filesOf(alice, 'mine.txt');
    await uploadBytes(ref(storageOf(alice), target), randomBytes(10));
    expect((await getMetadata(ref(storageOf(bob), target))).size).toBe(10);
    await expect(
      updateMetadata(ref(storageOf(bob), target), { contentLanguage: 'fr' }),
    ).rejects.toMatchObject({
      code: 'storage/unauthorized',
    });
    await expect(deleteObject(ref(storageOf(bob), target))).rejects.toMatchObject({
      code: 'storage/unauthorized',
    });
  });

  it('deleteObject removes the object; then every object call says object-not-found', async () => {
    const target = ref(storageOf(alice), filesOf(alice, 'doomed.txt'));
    await uploadBytes(target, randomBytes(10));
    const url = await getDownloadURL(target);
    await deleteObject(target);
    const notFound = {
      code: 'storage/object-not-found',
      status: 0,
      message: `Firebase Storage: Object '${target.fullPath}' does not exist. (storage/object-not-found)\nNot Found`,
    };
    await expect(getMetadata(target)).rejects.toMatchObject(notFound);
    await expect(getDownloadURL(target)).rejects.toMatchObject(notFound);
    await expect(updateMetadata(target, { contentLanguage: 'en' })).rejects.toMatchObject(notFound);
    await expect(deleteObject(target)).rejects.toMatchObject(notFound);
    expect((await fetch(url)).status).not.toBe(200);
  });

  it.each([
    ['dir/100% naïve – 東京.txt'],
    ['with space/a+b=c&d?#.txt'],
    ["quotes 'and' (parens) ~!*.bin"],
    ['deep/er/still/δ.bin'],
  ])('a name with spaces, percent signs, slashes or non-ASCII letters round-trips: %s', async (name) => {
    const fullPath = filesOf(alice, name);
    const target = ref(storageOf(alice), fullPath);
    const small = randomBytes(1000);
    const { metadata } = await uploadBytes(target, small);
    expect(metadata.fullPath).toBe(fullPath);
    expect(metadata.name).toBe(name.split('/').at(-1));
    expect((await getMetadata(target)).fullPath).toBe(fullPath);
    const { bytes } = await fetchBytes(await getDownloadURL(target));
    expect(sha256(bytes)).toBe(sha256(small));
    const folder = await list(target.parent ?? target.root);
    expect(folder.items.map((item) => item.fullPath)).toContain(fullPath);

    // The same name through the resumable protocol (the name travels in the start URL only).
    const big = randomBytes(300_000);
    const snapshot = await uploadBytesResumable(target, big);
    expect(snapshot.metadata?.fullPath).toBe(fullPath);
    expect(sha256((await fetchBytes(await getDownloadURL(target))).bytes)).toBe(sha256(big));
    await deleteObject(target);
  });
});

import { describe, expect, it } from 'vitest';
import { childPath, lastComponent, parentPath } from './path';
import { child, ref, StorageReference } from './reference';
import { createStorage } from './service';
import {
  deleteObject,
  getDownloadURL,
  getMetadata,
  updateMetadata,
  uploadBytes,
  uploadBytesResumable,
} from './operations';

const storage = createStorage({ baseUrl: 'http://h:1', bucket: 'bkt' });

describe('paths', () => {
  it.each([
    ['', 'a/b', 'a/b'],
    ['', '/a//b/', 'a/b'],
    ['a', 'b', 'a/b'],
    ['a', '//b//c//', 'a/b/c'],
    ['a', '', 'a'],
    ['', '', ''],
  ])('childPath(%j, %j) = %j', (path, childName, expected) => {
    expect(childPath(path, childName)).toBe(expected);
  });

  it('parent and last component', () => {
    expect(parentPath('a/b/c')).toBe('a/b');
    expect(parentPath('a')).toBe('');
    expect(parentPath('')).toBeNull();
    expect(lastComponent('a/b/c')).toBe('c');
    expect(lastComponent('c')).toBe('c');
    expect(lastComponent('')).toBe('');
  });
});

describe('ref', () => {
  it('normalises paths and exposes fullPath, name, bucket, parent, root', () => {
    const r = ref(storage, '//files/u1//dir/100% naïve – 東京.txt');
    expect(r).toBeInstanceOf(StorageReference);
    expect(r.fullPath).toBe('files/u1/dir/100% naïve – 東京.txt');
    expect(r.name).toBe('100% naïve – 東京.txt');
    expect(r.bucket).toBe('bkt');
    expect(r.parent?.fullPath).toBe('files/u1/dir');
    expect(r.root.fullPath).toBe('');
    expect(r.root.parent).toBeNull();
    expect(r.toString()).toBe('gs://bkt/files/u1/dir/100% naïve – 東京.txt');
  });

  it('makes children from a ref', () => {
    const folder = ref(storage, 'files');
    expect(folder.child('u1/a.txt').fullPath).toBe('files/u1/a.txt');
    expect(child(folder, '/x/').fullPath).toBe('files/x');
    expect(ref(folder, 'y').fullPath).toBe('files/y');
    expect(ref(folder).fullPath).toBe('files');
    expect(ref(storage).fullPath).toBe('');
  });

  it('parses gs:// and download URLs', () => {
    expect(ref(storage, 'gs://other/a/b').bucket).toBe('other');
    expect(ref(storage, 'gs://other/a/b').fullPath).toBe('a/b');
    const fromUrl = ref(storage, 'http://h:1/v0/b/bkt/o/dir%2F100%25%20x.txt?alt=media&token=t');
    expect(fromUrl.fullPath).toBe('dir/100% x.txt');
    expect(() => ref(storage, 'ftp://nope/x')).toThrow(
      expect.objectContaining({
        code: 'storage/invalid-url',
        message: "Firebase Storage: Invalid URL 'ftp://nope/x'. (storage/invalid-url)",
      }),
    );
  });

  it('throws no-default-bucket without a bucket', () => {
    const bucketless = createStorage({ baseUrl: 'http://h:1' });
    expect(() => ref(bucketless, 'a')).toThrow(
      expect.objectContaining({
        code: 'storage/no-default-bucket',
        message:
          "Firebase Storage: No default bucket found. Did you set the 'storageBucket' property when initializing the app? (storage/no-default-bucket)",
      }),
    );
    expect(createStorage({ bucket: 'gs://named' }).bucket).toBe('named');
    expect(() => createStorage({ bucket: 'gs://named/path' })).toThrow(
      expect.objectContaining({ code: 'storage/invalid-default-bucket' }),
    );
  });

  it('refuses object operations on the root', async () => {
    const root = ref(storage);
    const message = (op: string) =>
      `Firebase Storage: The operation '${op}' cannot be performed on a root reference, create a non-root reference using child, such as .child('file.png'). (storage/invalid-root-operation)`;
    await expect(getMetadata(root)).rejects.toMatchObject({ message: message('getMetadata') });
    await expect(getDownloadURL(root)).rejects.toMatchObject({ message: message('getDownloadURL') });
    await expect(updateMetadata(root, {})).rejects.toMatchObject({ message: message('updateMetadata') });
    await expect(deleteObject(root)).rejects.toMatchObject({ message: message('deleteObject') });
    await expect(uploadBytes(root, new Uint8Array(1))).rejects.toMatchObject({
      message: message('uploadBytes'),
    });
    expect(() => uploadBytesResumable(root, new Uint8Array(1))).toThrow(
      expect.objectContaining({ message: message('uploadBytesResumable') }),
    );
  });
});

describe('retry time settings', () => {
  it('accept 0 and more, and refuse negatives with invalid-argument', () => {
    const s = createStorage({ bucket: 'b' });
    expect(s.maxOperationRetryTime).toBe(120_000);
    expect(s.maxUploadRetryTime).toBe(600_000);
    s.maxOperationRetryTime = 0;
    s.maxUploadRetryTime = 10;
    expect(s.maxOperationRetryTime).toBe(0);
    expect(s.maxUploadRetryTime).toBe(10);
    const invalid = expect.objectContaining({
      code: 'storage/invalid-argument',
      message:
        "Firebase Storage: Invalid value for 'time'. Expected 0 or greater. (storage/invalid-argument)",
    });
    expect(() => (s.maxOperationRetryTime = -1)).toThrow(invalid);
    expect(() => (s.maxUploadRetryTime = Number.NaN)).toThrow(invalid);
    expect(() => createStorage({ maxUploadRetryTime: -5 })).toThrow(invalid);
  });
});

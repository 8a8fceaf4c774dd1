import { storageErrorTexts } from '../../common/storage-errors';
import { childPath, lastComponent, locationFromUrl, looksLikeUrl, parentPath, type Location } from './path';
import { Storage } from './service';
import { storageErrors } from './storage-error';

/** A pointer to an object (or a folder, or the bucket root) in storage. Cheap; no request is made. */
export class StorageReference {
  constructor(
    readonly storage: Storage,
    /** @internal */ readonly location: Location,
  ) {}

  /** The bucket the object is in. */
  get bucket(): string {
    return this.location.bucket;
  }

  /** The object's path in the bucket, without a leading slash; `''` for the root. */
  get fullPath(): string {
    return this.location.path;
  }

  /** The last segment of the path; `''` for the root. */
  get name(): string {
    return lastComponent(this.location.path);
  }

  /** The enclosing folder; null for the root. */
  get parent(): StorageReference | null {
    const path = parentPath(this.location.path);
    return path === null ? null : new StorageReference(this.storage, { bucket: this.bucket, path });
  }

  /** The bucket's root. */
  get root(): StorageReference {
    return new StorageReference(this.storage, { bucket: this.bucket, path: '' });
  }

  /** A reference below this one; slashes in `path` are collapsed. */
  child(path: string): StorageReference {
    return new StorageReference(this.storage, {
      bucket: this.bucket,
      path: childPath(this.location.path, path),
    });
  }

  /** `gs://bucket/path`. */
  toString(): string {
    return `gs://${this.bucket}/${this.fullPath}`;
  }
}

/**
 * `ref(storage)`: the default bucket's root; `ref(storage, 'a/b')`: a path in it (slashes collapsed);
 * `ref(storage, 'gs://bucket/a')` or a `/v0/b/…/o/…` URL (a download URL): that location;
 * `ref(parentRef, 'c')`: a child.
 */
export function ref(storageOrRef: Storage | StorageReference, path?: string): StorageReference {
  if (storageOrRef instanceof StorageReference) {
    return path === undefined ? storageOrRef : storageOrRef.child(path);
  }
  if (!(storageOrRef instanceof Storage)) {
    throw storageErrors.invalidArgument(storageErrorTexts.refNeedsStorage);
  }
  if (path !== undefined && looksLikeUrl(path)) {
    return new StorageReference(storageOrRef, locationFromUrl(path));
  }
  if (storageOrRef.bucket === null) throw storageErrors.noDefaultBucket();
  return new StorageReference(storageOrRef, { bucket: storageOrRef.bucket, path: childPath('', path ?? '') });
}

/** `child(ref, path)`, the same as `ref.child(path)`. */
export function child(parent: StorageReference, path: string): StorageReference {
  return parent.child(path);
}

/** Throws `storage/invalid-root-operation` for operations that need an object. */
export function requireNonRoot(reference: StorageReference, operation: string): void {
  if (reference.fullPath === '') throw storageErrors.invalidRootOperation(operation);
}

/** Gives metadata its `ref` (not enumerable, so the metadata still compares and prints as plain data). */
export function withReference<T extends { bucket: string; fullPath: string }>(
  storage: Storage,
  metadata: T,
): T {
  Object.defineProperty(metadata, 'ref', {
    get: () => new StorageReference(storage, { bucket: metadata.bucket, path: metadata.fullPath }),
    enumerable: false,
    configurable: true,
  });
  return metadata;
}

import path from 'node:path';
import type { BlobStorageConfig } from '../../config/config';
import type { BlobStore } from './blob-store';
import { LocalDiskBlobStore } from './local-disk-blob-store';

export interface OpenedBlobStore {
  blobs: BlobStore;
  /** Releases what the store holds open (the S3 client's sockets); the disk store holds nothing. */
  close(): void;
}

/**
 * The blob store STORAGE_DRIVER names: `disk` under `DATA_DIR/storage`, or `s3`. The S3 store (and the
 * AWS SDK) is imported only when chosen, so a disk install never loads it; it checks the bucket and keys
 * once here, so a wrong setting stops the start with S3's own message rather than failing an upload.
 */
export async function createBlobStore(storage: BlobStorageConfig, dataDir: string): Promise<OpenedBlobStore> {
  if (storage.driver === 'disk') {
    return { blobs: new LocalDiskBlobStore(path.join(dataDir, 'storage')), close: () => undefined };
  }
  const { S3BlobStore } = await import('./s3-blob-store');
  const { driver: _driver, ...options } = storage;
  const blobs = new S3BlobStore(options);
  try {
    await blobs.checkReachable();
  } catch (error) {
    blobs.close();
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`S3 storage (bucket '${storage.bucket}') is not usable: ${reason}`, { cause: error });
  }
  return { blobs, close: () => blobs.close() };
}

import type { Kysely } from 'kysely';
import { IMAGE_SNIFF_BYTES, sniffRasterImage, STORAGE_DEFAULT_CONTENT_TYPE } from '../../common';
import type { Database } from '../db/schema';
import { newId } from '../core/ids';
import type { StoredBlob } from '../storage/stores/blob-store';
import { safeFileName } from '../storage/objects/object-names';
import type { StorageService } from '../storage/objects/storage-service';

/** A profile picture that passed `checkThumbnail`, as read from a form. */
export interface ThumbnailUpload {
  bytes: Buffer;
  fileName: string | undefined;
}

/** A thumbnail's bytes already in the blob store, waiting for the transaction that records them. */
export interface StagedThumbnail {
  blob: StoredBlob;
  objectName: string;
  contentType: string;
}

/**
 * Profile pictures at `thumbnails/{uid}/…` (docs/product-spec.md#52-signup-thumbnail), for signup and for
 * a changed avatar. Each upload gets a fresh name, so the previous picture's URL keeps working until the
 * new one is recorded; the old object is removed after that (`StorageService.deleteThumbnails`).
 */
export class ProfileThumbnails {
  constructor(private readonly storage: StorageService) {}

  /**
   * Writes the bytes (before any transaction, so a failure leaves no row behind). Signup keeps the file's
   * name (the spec's path); a replacement gets a fresh prefix so it never overwrites the picture in use.
   */
  async stage(uid: string, thumbnail: ThumbnailUpload, replacing: boolean): Promise<StagedThumbnail> {
    const contentType =
      sniffRasterImage(thumbnail.bytes.subarray(0, IMAGE_SNIFF_BYTES)) ?? STORAGE_DEFAULT_CONTENT_TYPE;
    const fileName = safeFileName(thumbnail.fileName, 'thumbnail');
    const objectName = `thumbnails/${uid}/${replacing ? `${newId().slice(0, 8)}-${fileName}` : fileName}`;
    const blob = await this.storage.stage(thumbnail.bytes);
    return { blob, objectName, contentType };
  }

  /** Records the staged bytes as the user's object inside `trx`; returns its download URL. */
  async record(trx: Kysely<Database>, uid: string, staged: StagedThumbnail): Promise<string> {
    const { row } = await this.storage.record(trx, {
      bucket: this.storage.defaultBucket,
      name: staged.objectName,
      blob: staged.blob,
      contentType: staged.contentType,
      ownerUid: uid,
    });
    return this.storage.downloadUrl(row);
  }

  /** After a failed transaction: the staged bytes are not referenced by anything. */
  discard(staged: StagedThumbnail | undefined): Promise<void> {
    return this.storage.discard(staged?.blob.key);
  }

  /** After the new picture is recorded: every older one of the user goes. */
  removeAllBut(uid: string, keep: StagedThumbnail | null): Promise<void> {
    return this.storage.deleteThumbnails(uid, keep?.objectName ?? null);
  }
}

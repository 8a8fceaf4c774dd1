import { IMAGE_SNIFF_BYTES, checkThumbnail, messages } from '../../common';

/**
 * The thumbnail rule of docs/product-spec.md#52-signup-thumbnail for a picked file, judged by its first
 * bytes like the server does (signup and the account settings' new avatar).
 */
export async function checkThumbnailFile(file: File | null): Promise<string | null> {
  if (!file) return checkThumbnail({ size: undefined, head: undefined });
  try {
    const head = new Uint8Array(await file.slice(0, IMAGE_SNIFF_BYTES).arrayBuffer());
    return checkThumbnail({ size: file.size, head });
  } catch {
    // The file could not be read (moved or deleted since it was picked).
    return messages.thumbnailRequired;
  }
}

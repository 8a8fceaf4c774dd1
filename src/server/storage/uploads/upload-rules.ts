import type { WritableMetadata } from '../../../common';
import { isValidObjectName } from '../objects/object-names';
import { storageErrors } from '../protocol/storage-errors';

/** Checks every way of writing an object shares (simple, multipart and resumable uploads). */

export function requireName(name: string | undefined): string {
  if (name === undefined || !isValidObjectName(name)) throw storageErrors.invalidName();
  return name;
}

export const nameIn = (metadata: WritableMetadata): string | undefined =>
  typeof metadata.name === 'string' ? metadata.name : undefined;

/** A client that sends md5Hash gets its bytes checked against it (GCS does the same). */
export function requireMd5(expected: string | null | undefined, actual: string): void {
  if (expected && expected !== actual) {
    throw storageErrors.invalidArgument('The uploaded bytes do not match md5Hash.');
  }
}

/** Upload sessions started before this instant are dead: they answer 404 and reserve no quota. */
export function uploadSessionCutoff(ttlMs: number, now: number = Date.now()): string {
  return new Date(now - ttlMs).toISOString();
}

import { randomBytes } from 'node:crypto';

/** Random, URL-safe, non-sequential ids (128 bits). */
export const newId = (): string => randomBytes(16).toString('base64url');

/**
 * `count` ids like `newId`'s from one draw of random bytes: each `randomBytes` call costs a few µs,
 * which 1,000 notification rows would otherwise pay inside the comment's transaction.
 */
export function newIds(count: number): string[] {
  const bytes = randomBytes(16 * count);
  return Array.from({ length: count }, (_, index) =>
    bytes.subarray(16 * index, 16 * (index + 1)).toString('base64url'),
  );
}

/** 256 random bits, for secrets that are handed to clients (session tokens). */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

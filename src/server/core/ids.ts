import { randomBytes } from 'node:crypto';

/** Random, URL-safe, non-sequential ids (128 bits). */
export const newId = (): string => randomBytes(16).toString('base64url');

/** 256 random bits, for secrets that are handed to clients (session tokens). */
export const newSecretToken = (): string => randomBytes(32).toString('base64url');

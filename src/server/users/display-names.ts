import type { Kysely } from 'kysely';
import { DELETED_USER_NAME, displayNameKey, messages } from '../../common';
import type { Database } from '../db/schema';
import { AppError } from '../core/app-error';
import { isDisplayNameTaken } from './users-repository';

/** 409 naming the field: the form shows it under the display name. */
export const displayNameTaken = (): AppError =>
  new AppError('conflict', messages.displayNameTaken, { displayName: messages.displayNameTaken });

/**
 * Refuses a display name another account already goes by (`displayNameKey`, decision 046), so that nobody
 * can pose as the admin, and the name deleted accounts are shown under. The unique `users.name_key` index
 * is what holds under a race; this gives the answer.
 */
export async function requireFreeDisplayName(
  db: Kysely<Database>,
  displayName: string,
  exceptId: string | null,
): Promise<void> {
  const placeholder = displayNameKey(displayName) === displayNameKey(DELETED_USER_NAME);
  if (placeholder || (await isDisplayNameTaken(db, displayName, exceptId))) throw displayNameTaken();
}

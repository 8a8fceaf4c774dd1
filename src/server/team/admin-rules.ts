import type { Kysely } from 'kysely';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { forbidden } from '../core/app-error';
import { findUserById, lockAdminChanges } from '../users/users-repository';

/** Admin-only operations start here; the role comes with the session (dropped from cache on a role change). */
export function requireAdmin(viewer: Viewer): void {
  if (viewer.role !== 'admin') throw forbidden();
}

/**
 * Inside the caller's transaction: takes the admin lock and re-reads `uid`, who must still be an active
 * admin. Role changes take the same lock, so a link made here cannot slip past the revocation of its
 * maker's links (decision 046), and of two admins demoting each other the second finds it is no longer one.
 */
export async function lockAsActiveAdmin(trx: Kysely<Database>, uid: string): Promise<void> {
  await lockAdminChanges(trx);
  const actor = await findUserById(trx, uid);
  if (actor?.role !== 'admin' || actor.status !== 'active') throw forbidden();
}

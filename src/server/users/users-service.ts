import type { Kysely } from 'kysely';
import type { UserProfile } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findUserProfile, listUserProfiles, type UserProfileQuery } from './users-repository';

/**
 * Reads of user profiles, for `GET /api/users` and the `users` live source alike. Both pass the one read
 * rule, `authorizeRead` (docs/decisions/049-server-folder-layers-and-one-read-rule.md).
 */
export class UsersService {
  constructor(private readonly deps: { db: Kysely<Database> }) {}

  /**
   * Every signed-in member reads every profile, and the same fields of it
   * (docs/product-spec.md#6-permissions): the viewer resolver and the live upgrade admit no one else, so
   * there is nothing more to check. A rule that depends on the viewer lands here, for both paths at once.
   */
  authorizeRead(_viewer: Viewer): void {}

  list(viewer: Viewer, query: UserProfileQuery): Promise<UserProfile[]> {
    this.authorizeRead(viewer);
    return listUserProfiles(this.deps.db, query);
  }

  find(viewer: Viewer, id: string): Promise<UserProfile | null> {
    this.authorizeRead(viewer);
    return findUserProfile(this.deps.db, id);
  }
}

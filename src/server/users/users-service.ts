import type { Kysely } from 'kysely';
import type { UserProfile } from '../../common';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { findUserProfile, listUserProfiles, type UserProfileQuery } from './users-repository';

/**
 * Reads of user profiles, for `GET /api/users` and the `users` live source alike, so the read rule has
 * one home: every signed-in user may read every profile (docs/product-spec.md#6-permissions). The viewer
 * is taken (and unused) so that a rule which depends on it lands here.
 */
export class UsersService {
  constructor(private readonly deps: { db: Kysely<Database> }) {}

  list(_viewer: Viewer, query: UserProfileQuery): Promise<UserProfile[]> {
    return listUserProfiles(this.deps.db, query);
  }

  find(_viewer: Viewer, id: string): Promise<UserProfile | null> {
    return findUserProfile(this.deps.db, id);
  }
}

import type { Kysely } from 'kysely';
import {
  DELETED_USER_NAME,
  messages,
  type AccountSession,
  type AuthUser,
  type ChangePasswordInput,
} from '../../common';
import type { AuthService } from '../auth/auth-service';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { deleteSession, deleteUserSessions, listUserSessions } from '../auth/sessions-repository';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import { AppError, notFound } from '../core/app-error';
import { nowIso } from '../core/time';
import { isUniqueViolation } from '../db/database';
import { endMembership } from '../team/departures';
import { displayNameTaken, requireFreeDisplayName } from '../users/display-names';
import { authUserOf } from '../users/auth-user';
import type { ProfileThumbnails, StagedThumbnail, ThumbnailUpload } from '../users/profile-thumbnails';
import {
  countActiveAdmins,
  eraseUser,
  findUserById,
  lockAdminChanges,
  updatePasswordHash,
  updateUserProfile,
} from '../users/users-repository';
import { describeDevice, publicSessionId } from './session-devices';

export interface ProfileChange {
  displayName?: string | undefined;
  thumbnail?: ThumbnailUpload | undefined;
}

/** The signed-in user's own account (docs/api.md "Account"): profile, password, sessions, deletion. */
export class AccountService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      auth: AuthService;
      thumbnails: ProfileThumbnails;
      writes: UnitOfWork;
    },
  ) {}

  /**
   * A new name and/or avatar. The new picture is stored under a fresh name and recorded in the same
   * transaction as the profile, so the old URL works until the new one is in place; then the old goes.
   */
  async updateProfile(viewer: Viewer, change: ProfileChange): Promise<AuthUser> {
    const { thumbnails } = this.deps;
    let staged: StagedThumbnail | undefined;
    try {
      if (change.thumbnail) staged = await thumbnails.stage(viewer.uid, change.thumbnail, true);
      const stagedThumbnail = staged;
      await this.deps.writes.run(async (trx, write) => {
        const photoURL = stagedThumbnail
          ? await thumbnails.record(trx, viewer.uid, stagedThumbnail)
          : undefined;
        if (change.displayName !== undefined) {
          await requireFreeDisplayName(trx, change.displayName, viewer.uid);
        }
        await updateUserProfile(trx, viewer.uid, { displayName: change.displayName, photoURL }, nowIso());
        this.deps.auth.declareUserChanged(write, viewer.uid);
      });
    } catch (error) {
      await thumbnails.discard(staged);
      // Another account took the name between the check and the write.
      throw isUniqueViolation(error) ? displayNameTaken() : error;
    }
    if (staged) await thumbnails.removeAllBut(viewer.uid, staged);
    return this.authUser(viewer.uid);
  }

  /** Needs the current password; every other session of the account ends (this one stays signed in). */
  async changePassword(viewer: Viewer, input: Required<ChangePasswordInput>): Promise<void> {
    await this.requirePassword(
      viewer,
      input.currentPassword,
      messages.currentPasswordWrong,
      'currentPassword',
    );
    const passwordHash = await hashPassword(input.newPassword);
    await this.deps.writes.run(async (trx, write) => {
      await updatePasswordHash(trx, viewer.uid, passwordHash, nowIso());
      this.deps.auth.declareSessionsEnded(
        write,
        await deleteUserSessions(trx, viewer.uid, viewer.sessionHash),
      );
    });
  }

  async listSessions(viewer: Viewer): Promise<AccountSession[]> {
    const rows = await listUserSessions(this.deps.db, viewer.uid, nowIso());
    return rows.map((row) => ({
      id: publicSessionId(row.tokenHash),
      device: describeDevice(row.userAgent),
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt ?? row.createdAt,
      current: row.tokenHash === viewer.sessionHash,
    }));
  }

  /** Ends one of the user's sessions by its public id (404 when it has already ended). */
  async signOutSession(viewer: Viewer, sessionId: string): Promise<void> {
    const rows = await listUserSessions(this.deps.db, viewer.uid, nowIso());
    const session = rows.find((row) => publicSessionId(row.tokenHash) === sessionId);
    if (!session) throw notFound(messages.sessionNotFound);
    if (session.tokenHash === viewer.sessionHash) {
      await this.deps.auth.logOut(viewer);
      return;
    }
    await this.deps.writes.run(async (trx, write) => {
      await deleteSession(trx, session.tokenHash);
      this.deps.auth.declareSessionsEnded(write, [session.tokenHash]);
    });
  }

  /** Every other browser session ends; API tokens are revoked one by one in their own list. */
  async signOutOtherSessions(viewer: Viewer): Promise<void> {
    await this.deps.writes.run(async (trx, write) => {
      this.deps.auth.declareSessionsEnded(
        write,
        await deleteUserSessions(trx, viewer.uid, viewer.sessionHash, 'browser'),
      );
    });
  }

  /**
   * Deletes the account, confirmed by its password. What the user wrote stays, shown under
   * DELETED_USER_NAME; the email can sign up again. The last admin cannot leave the team without one.
   */
  async deleteAccount(viewer: Viewer, password: string): Promise<void> {
    await this.requirePassword(viewer, password, messages.passwordWrong, 'password');
    await this.deps.writes.run(async (trx, write) => {
      await lockAdminChanges(trx);
      const user = await findUserById(trx, viewer.uid);
      if (user?.role === 'admin' && user.status === 'active' && (await countActiveAdmins(trx)) <= 1) {
        throw new AppError('conflict', messages.lastAdmin);
      }
      const now = nowIso();
      await eraseUser(trx, viewer.uid, { displayName: DELETED_USER_NAME, photoURL: '' }, now);
      await endMembership(trx, viewer.uid, now);
      this.deps.auth.declareSessionsEnded(write, await deleteUserSessions(trx, viewer.uid));
      this.deps.auth.declareUserChanged(write, viewer.uid);
    });
    await this.deps.thumbnails.removeAllBut(viewer.uid, null);
  }

  private async requirePassword(viewer: Viewer, password: string, message: string, field: string) {
    const user = await findUserById(this.deps.db, viewer.uid);
    if (!user || !(await verifyPassword(password, user.password_hash))) {
      throw new AppError('forbidden', message, { [field]: message });
    }
  }

  private async authUser(uid: string): Promise<AuthUser> {
    const user = await findUserById(this.deps.db, uid);
    if (!user) throw notFound();
    return authUserOf(user);
  }
}

import type { Kysely } from 'kysely';
import { messages, type Member, type MemberPage, type Role } from '../../common';
import type { AuthService } from '../auth/auth-service';
import { deleteUserSessions } from '../auth/sessions-repository';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { Change, ChangeBus } from '../live/change-bus';
import { AppError, forbidden, invalidArgument, notFound } from '../core/app-error';
import { nowIso } from '../core/time';
import {
  countActiveAdmins,
  findMember,
  findUserById,
  listMembers,
  lockAdminChanges,
  setUserRole,
  setUserStatus,
} from '../users/users-repository';
import { requireAdmin } from './admin-rules';

const lastAdmin = (): AppError => new AppError('conflict', messages.lastAdmin);

/** The members screen's cursor: the last row's sort key, opaque to clients. */
const encodeCursor = (member: Member): string =>
  Buffer.from(JSON.stringify([member.displayName, member.id])).toString('base64url');

function decodeCursor(cursor: string): { displayName: string; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return { displayName: value[0] as string, id: value[1] as string };
    }
  } catch {
    // falls through to the 400 below
  }
  throw invalidArgument({ after: 'That page of members does not exist.' });
}

/**
 * What admins do to accounts (docs/decisions/018-team-roles.md). Every change to who is an admin runs
 * under `lockAdminChanges` and re-reads the acting admin inside it, so of two admins demoting each other
 * at the same moment the second finds it is no longer an admin: one admin always remains.
 */
export class MembersService {
  constructor(private readonly deps: { db: Kysely<Database>; changes: ChangeBus; auth: AuthService }) {}

  async list(
    viewer: Viewer,
    page: { search?: string | undefined; after?: string | undefined; limit: number },
  ): Promise<MemberPage> {
    requireAdmin(viewer);
    const search = page.search?.trim();
    const { members, more } = await listMembers(this.deps.db, {
      search: search || undefined,
      after: page.after ? decodeCursor(page.after) : undefined,
      limit: page.limit,
    });
    const last = members.at(-1);
    return { members, nextCursor: more && last ? encodeCursor(last) : null };
  }

  async setRole(viewer: Viewer, memberId: string, role: Role): Promise<Member> {
    requireAdmin(viewer);
    const unpublished = await this.deps.db.transaction().execute(async (trx) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.role === role) return [];
      if (role === 'member' && target.status === 'active' && (await countActiveAdmins(trx)) <= 1) {
        throw lastAdmin();
      }
      await setUserRole(trx, memberId, role, nowIso());
      return this.memberChangedAtCommit(trx, memberId);
    });
    await this.deps.changes.publish(unpublished);
    return this.member(memberId);
  }

  /** The member cannot sign in; every session ends now, and their open tabs are signed out live. */
  async deactivate(viewer: Viewer, memberId: string): Promise<Member> {
    requireAdmin(viewer);
    if (memberId === viewer.uid) throw new AppError('forbidden', messages.cannotDeactivateSelf);
    const { endedSessions, unpublished } = await this.deps.db.transaction().execute(async (trx) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.status !== 'active') {
        return { endedSessions: { sessionHashes: [], unpublished: [] }, unpublished: [] };
      }
      if (target.role === 'admin' && (await countActiveAdmins(trx)) <= 1) throw lastAdmin();
      await setUserStatus(trx, memberId, 'deactivated', nowIso());
      return {
        endedSessions: await this.deps.auth.endedAtCommit(trx, await deleteUserSessions(trx, memberId)),
        unpublished: await this.memberChangedAtCommit(trx, memberId),
      };
    });
    await this.deps.auth.sessionsEnded(endedSessions);
    await this.deps.changes.publish(unpublished);
    return this.member(memberId);
  }

  async reactivate(viewer: Viewer, memberId: string): Promise<Member> {
    requireAdmin(viewer);
    const unpublished = await this.deps.db.transaction().execute(async (trx) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.status !== 'deactivated') return [];
      await setUserStatus(trx, memberId, 'active', nowIso());
      return this.memberChangedAtCommit(trx, memberId);
    });
    await this.deps.changes.publish(unpublished);
    return this.member(memberId);
  }

  /**
   * Inside the change's transaction: the member's row changed. On PostgreSQL the NOTIFY commits with the
   * change (one WAL sync, never lost between the two); in process it is returned to publish after the commit.
   */
  private memberChangedAtCommit(trx: Kysely<Database>, memberId: string): Promise<Change[]> {
    return this.deps.changes.publishAtCommit(trx, [{ collection: 'users', id: memberId }]);
  }

  /** Takes the admin lock, checks the actor is still an active admin, and reads the target (404 if none). */
  private async lockedTarget(trx: Kysely<Database>, viewer: Viewer, memberId: string) {
    await lockAdminChanges(trx);
    const actor = await findUserById(trx, viewer.uid);
    if (actor?.role !== 'admin' || actor.status !== 'active') throw forbidden();
    const target = await findUserById(trx, memberId);
    if (!target || target.status === 'deleted') throw notFound(messages.memberNotFound);
    return target;
  }

  private async member(memberId: string): Promise<Member> {
    const member = await findMember(this.deps.db, memberId);
    if (!member) throw notFound(messages.memberNotFound);
    return member;
  }
}

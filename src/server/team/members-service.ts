import type { Kysely } from 'kysely';
import { messages, type Member, type MemberPage, type Role } from '../../common';
import type { AuthService } from '../auth/auth-service';
import { deleteUserSessions } from '../auth/sessions-repository';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { UnitOfWork } from '../db/unit-of-work';
import { AppError, invalidArgument, notFound } from '../core/app-error';
import { dropQueuedEmails } from '../notifications/email-repository';
import { nowIso } from '../core/time';
import {
  countActiveAdmins,
  findMember,
  findUserById,
  listMembers,
  setUserRole,
  setUserStatus,
} from '../users/users-repository';
import { lockAsActiveAdmin, requireAdmin } from './admin-rules';
import { endLinksMadeBy, endMembership } from './departures';

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
  throw invalidArgument({ after: messages.membersCursorInvalid });
}

/**
 * What admins do to accounts (docs/decisions/018-team-roles.md). Every change to who is an admin runs
 * under `lockAsActiveAdmin`, which re-reads the acting admin inside the admin lock, so of two admins demoting each other
 * at the same moment the second finds it is no longer an admin: one admin always remains.
 */
export class MembersService {
  constructor(private readonly deps: { db: Kysely<Database>; auth: AuthService; writes: UnitOfWork }) {}

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
    await this.deps.writes.run(async (trx, write) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.role === role) return;
      if (role === 'member' && target.status === 'active' && (await countActiveAdmins(trx)) <= 1) {
        throw lastAdmin();
      }
      const now = nowIso();
      await setUserRole(trx, memberId, role, now);
      if (role === 'member') await endLinksMadeBy(trx, memberId, now);
      this.deps.auth.declareUserChanged(write, memberId);
    });
    return this.member(memberId);
  }

  /**
   * The member cannot sign in; every session ends now, and their open tabs are signed out live. Their
   * queued emails are dropped and the links they made as an admin stop working, in the same transaction.
   */
  async deactivate(viewer: Viewer, memberId: string): Promise<Member> {
    requireAdmin(viewer);
    if (memberId === viewer.uid) throw new AppError('forbidden', messages.cannotDeactivateSelf);
    await this.deps.writes.run(async (trx, write) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.status !== 'active') return;
      if (target.role === 'admin' && (await countActiveAdmins(trx)) <= 1) throw lastAdmin();
      const now = nowIso();
      await setUserStatus(trx, memberId, 'deactivated', now);
      await endMembership(trx, memberId, now);
      this.deps.auth.declareSessionsEnded(write, await deleteUserSessions(trx, memberId));
      this.deps.auth.declareUserChanged(write, memberId);
    });
    return this.member(memberId);
  }

  /**
   * The member may sign in again. Nothing from before is mailed: notifications that came while they were
   * away are marked done with the rest (decision 046). Links they made as an admin stay revoked.
   */
  async reactivate(viewer: Viewer, memberId: string): Promise<Member> {
    requireAdmin(viewer);
    await this.deps.writes.run(async (trx, write) => {
      const target = await this.lockedTarget(trx, viewer, memberId);
      if (target.status !== 'deactivated') return;
      const now = nowIso();
      await setUserStatus(trx, memberId, 'active', now);
      await dropQueuedEmails(trx, memberId, now);
      this.deps.auth.declareUserChanged(write, memberId);
    });
    return this.member(memberId);
  }

  /** Takes the admin lock, checks the actor is still an active admin, and reads the target (404 if none). */
  private async lockedTarget(trx: Kysely<Database>, viewer: Viewer, memberId: string) {
    await lockAsActiveAdmin(trx, viewer.uid);
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

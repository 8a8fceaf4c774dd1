import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  INVITATION_MAX_DAYS,
  messages,
  type CreatedInvitation,
  type CreateInvitationSchema,
  type Invitation,
  type InvitationCheck,
} from '../../common';
import type { z } from 'zod/mini';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import { AppError, notFound } from '../core/app-error';
import { newId, newSecretToken } from '../core/ids';
import { nowIso } from '../core/time';
import { lockAsActiveAdmin, requireAdmin } from './admin-rules';
import {
  consumeInvitation,
  findInvitation,
  findInvitationByTokenHash,
  insertInvitation,
  listInvitations,
  revokeInvitation,
} from './invitations-repository';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The invitations screen lists this many, newest first (older ones are spent or expired by then). */
const INVITATIONS_LISTED = 200;

const hashToken = (token: string): string =>
  createHash('sha256').update(`invitation:${token}`).digest('base64url');

type InvitationRow = NonNullable<Awaited<ReturnType<typeof findInvitation>>>;

function statusOf(row: InvitationRow, now: string): Invitation['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.uses >= row.max_uses) return 'used';
  if (row.expires_at <= now) return 'expired';
  return 'open';
}

function toInvitation(row: InvitationRow, now: string): Invitation {
  return {
    id: row.id,
    email: row.email,
    maxUses: row.max_uses,
    uses: row.uses,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    createdBy: { id: row.created_by, displayName: row.creator_name },
    revokedAt: row.revoked_at,
    status: statusOf(row, now),
  };
}

const NOT_USABLE: Record<Exclude<Invitation['status'], 'open'>, string> = {
  used: messages.invitationUsed,
  expired: messages.invitationExpired,
  revoked: messages.invitationRevoked,
};

/**
 * Invitation links (docs/decisions/018-team-roles.md): made and revoked by admins; the token is shown once
 * and only its hash is kept, so a database leak holds no usable links.
 */
export class InvitationsService {
  constructor(private readonly deps: { db: Kysely<Database>; publicUrl: string | undefined }) {}

  /**
   * The link is on `PUBLIC_URL`, else relative (the client resolves it against the origin it is on), never
   * on a host a request named (docs/decisions/043-links-from-configuration.md).
   */
  async create(viewer: Viewer, input: z.output<typeof CreateInvitationSchema>): Promise<CreatedInvitation> {
    requireAdmin(viewer);
    const token = newSecretToken();
    const id = newId();
    const now = nowIso();
    const days = Math.min(input.expiresInDays, INVITATION_MAX_DAYS);
    // Under the admin lock: the maker is still an admin, and a demotion after this revokes it (decision 046).
    await this.deps.db.transaction().execute(async (trx) => {
      await lockAsActiveAdmin(trx, viewer.uid);
      await insertInvitation(trx, {
        id,
        tokenHash: hashToken(token),
        email: input.email ? input.email : null,
        maxUses: input.maxUses,
        expiresAt: new Date(Date.parse(now) + days * DAY_MS).toISOString(),
        createdBy: viewer.uid,
        now,
      });
    });
    const row = await findInvitation(this.deps.db, id);
    if (!row) throw notFound();
    const url = `${this.deps.publicUrl ?? ''}/signup?invitation=${encodeURIComponent(token)}`;
    return { invitation: toInvitation(row, now), url };
  }

  async list(viewer: Viewer): Promise<Invitation[]> {
    requireAdmin(viewer);
    const now = nowIso();
    return (await listInvitations(this.deps.db, INVITATIONS_LISTED)).map((row) => toInvitation(row, now));
  }

  async revoke(viewer: Viewer, id: string): Promise<Invitation> {
    requireAdmin(viewer);
    const now = nowIso();
    await revokeInvitation(this.deps.db, id, now);
    const row = await findInvitation(this.deps.db, id);
    if (!row) throw notFound(messages.invitationInvalid);
    return toInvitation(row, now);
  }

  /** What the signup form shows for a link: 404 unknown, 410 used / expired / revoked. */
  async check(token: string): Promise<InvitationCheck> {
    const row = await this.openInvitation(token);
    return { email: row.email, expiresAt: row.expires_at };
  }

  /** The open invitation behind `token` if `email` may use it; otherwise the error that says why. */
  async usableFor(token: string, email: string): Promise<{ id: string; forEmail: boolean }> {
    const row = await this.openInvitation(token);
    if (row.email && row.email.toLowerCase() !== email.toLowerCase()) {
      throw new AppError('forbidden', messages.invitationOtherEmail, {
        email: messages.invitationOtherEmail,
      });
    }
    return { id: row.id, forEmail: Boolean(row.email) };
  }

  async consume(trx: Kysely<Database>, id: string): Promise<void> {
    if (!(await consumeInvitation(trx, id, nowIso()))) throw new AppError('gone', messages.invitationUsed);
  }

  private async openInvitation(token: string): Promise<InvitationRow> {
    const row = await findInvitationByTokenHash(this.deps.db, hashToken(token));
    if (!row) throw notFound(messages.invitationInvalid);
    const status = statusOf(row, nowIso());
    if (status !== 'open') throw new AppError('gone', NOT_USABLE[status]);
    return row;
  }
}

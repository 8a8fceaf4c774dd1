import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  messages,
  PASSWORD_RESET_EMAILS_PER_HOUR,
  PASSWORD_RESET_TTL_MS,
  type PasswordResetLink,
} from '../../common';
import type { AuthService } from '../auth/auth-service';
import { hashPassword } from '../auth/passwords';
import { deleteUserSessions } from '../auth/sessions-repository';
import type { Viewer } from '../core/viewer';
import type { Database } from '../db/schema';
import type { RateLimitCounters } from '../rate-limits/rate-limits-repository';
import { AppError, notFound, tooManyRequests } from '../core/app-error';
import { newSecretToken } from '../core/ids';
import type { Logger } from '../core/logger';
import { nowIso } from '../core/time';
import { requireAdmin } from '../team/admin-rules';
import { findMember, findUserByEmailKey, updatePasswordHash } from '../users/users-repository';
import type { Mailer } from './mailer';
import {
  consumePasswordReset,
  findPasswordReset,
  insertPasswordReset,
  voidPasswordResetsOf,
} from './password-resets-repository';

const HOUR_MS = 60 * 60 * 1000;
const hashToken = (token: string): string =>
  createHash('sha256').update(`reset:${token}`).digest('base64url');

/**
 * One-time links that set a new password (docs/decisions/018-team-roles.md): an admin makes one for a
 * member, or 'Forgot password?' emails one when SMTP is configured. Only the token's hash is stored; a new
 * link voids the user's older ones; using one ends every session of the account.
 */
export class PasswordResetService {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      auth: AuthService;
      mailer: Mailer | undefined;
      counters: RateLimitCounters;
      publicUrl: string | undefined;
      log: Logger;
    },
  ) {}

  get byEmail(): boolean {
    return this.deps.mailer !== undefined;
  }

  async createLink(viewer: Viewer, memberId: string, requestOrigin: string): Promise<PasswordResetLink> {
    requireAdmin(viewer);
    const member = await findMember(this.deps.db, memberId);
    if (!member) throw notFound(messages.memberNotFound);
    return this.newLink(memberId, requestOrigin);
  }

  /**
   * Emails a link when the address belongs to an active account. The answer is the same either way and
   * does not wait for the mail server, so neither its words nor its timing tell whether the account exists.
   */
  async requestByEmail(email: string, requestOrigin: string): Promise<string> {
    const { mailer, counters, db, log } = this.deps;
    if (!mailer) throw notFound(messages.resetByEmailOff);
    const emailKey = email.toLowerCase();
    const key = `reset-emails:${createHash('sha256').update(emailKey).digest('base64url')}`;
    const counted = await counters.increment(key, HOUR_MS);
    if (counted.count > PASSWORD_RESET_EMAILS_PER_HOUR) {
      throw tooManyRequests(messages.tooManyResetEmails, counted.ttl);
    }
    const user = await findUserByEmailKey(db, emailKey);
    if (user?.status === 'active') {
      const link = await this.newLink(user.id, requestOrigin);
      mailer
        .send({
          to: user.email,
          subject: 'Set a new password for The Dojo',
          text: [
            `Hello ${user.display_name},`,
            '',
            'Someone (hopefully you) asked to set a new password for your account. Open this link within an hour:',
            '',
            link.url,
            '',
            'If you did not ask for this, ignore this email: your password stays as it is.',
          ].join('\n'),
        })
        .catch((error: unknown) => log.error({ err: error }, 'sending a password reset email failed'));
    }
    return messages.resetEmailSent;
  }

  /** Whether a link can still be used: 404 unknown, 410 used or expired. */
  async check(token: string): Promise<{ expiresAt: string }> {
    const row = await findPasswordReset(this.deps.db, hashToken(token));
    if (!row) throw notFound(messages.resetLinkInvalid);
    if (row.used_at) throw new AppError('gone', messages.resetLinkUsed);
    if (row.expires_at <= nowIso()) throw new AppError('gone', messages.resetLinkExpired);
    return { expiresAt: row.expires_at };
  }

  /** Sets the new password and signs the account out everywhere. */
  async reset(token: string, password: string): Promise<void> {
    const tokenHash = hashToken(token);
    const row = await findPasswordReset(this.deps.db, tokenHash);
    if (!row) throw notFound(messages.resetLinkInvalid);
    const passwordHash = await hashPassword(password);
    const ended = await this.deps.db.transaction().execute(async (trx) => {
      const now = nowIso();
      if (!(await consumePasswordReset(trx, tokenHash, now))) {
        throw new AppError('gone', row.used_at ? messages.resetLinkUsed : messages.resetLinkExpired);
      }
      await updatePasswordHash(trx, row.user_id, passwordHash, now);
      return this.deps.auth.endedAtCommit(trx, await deleteUserSessions(trx, row.user_id));
    });
    await this.deps.auth.sessionsEnded(ended);
  }

  private async newLink(userId: string, requestOrigin: string): Promise<PasswordResetLink> {
    const token = newSecretToken();
    const now = nowIso();
    const expiresAt = new Date(Date.parse(now) + PASSWORD_RESET_TTL_MS).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      await voidPasswordResetsOf(trx, userId, now);
      await insertPasswordReset(trx, { tokenHash: hashToken(token), userId, expiresAt, now });
    });
    const url = `${this.deps.publicUrl ?? requestOrigin}/reset-password?token=${encodeURIComponent(token)}`;
    return { url, expiresAt };
  }
}

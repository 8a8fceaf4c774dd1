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
import type { UnitOfWork } from '../db/unit-of-work';
import type { RateLimitCounters } from '../rate-limits/rate-limits-repository';
import { AppError, notFound, tooManyRequests } from '../core/app-error';
import { newSecretToken } from '../core/ids';
import type { Logger } from '../core/logger';
import { nowIso } from '../core/time';
import { findMember, findUserByEmailKey, updatePasswordHash } from '../users/users-repository';
import type { Mailer } from '../notifications/mailer';
import { lockAsActiveAdmin, requireAdmin } from './admin-rules';
import {
  consumePasswordReset,
  findPasswordReset,
  insertPasswordReset,
  voidPasswordResetsOf,
} from './password-resets-repository';

const HOUR_MS = 60 * 60 * 1000;
const hashToken = (token: string): string =>
  createHash('sha256').update(`reset:${token}`).digest('base64url');
const resetUrl = (base: string, token: string): string =>
  `${base}/reset-password?token=${encodeURIComponent(token)}`;

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
      writes: UnitOfWork;
      mailer: Mailer | undefined;
      counters: RateLimitCounters;
      publicUrl: string | undefined;
      log: Logger;
    },
  ) {}

  get byEmail(): boolean {
    return this.deps.mailer !== undefined;
  }

  /**
   * A link an admin hands over: on `PUBLIC_URL`, else relative (the client resolves it against the origin
   * it is on), never on a host a request named (docs/decisions/043-links-from-configuration.md).
   */
  async createLink(viewer: Viewer, memberId: string): Promise<PasswordResetLink> {
    requireAdmin(viewer);
    const member = await findMember(this.deps.db, memberId);
    if (!member) throw notFound(messages.memberNotFound);
    const token = newSecretToken();
    const expiresAt = await this.storeToken(memberId, hashToken(token), viewer.uid);
    return { url: resetUrl(this.deps.publicUrl ?? '', token), expiresAt };
  }

  /**
   * 'Forgot password?': only the checks that decide the answer (email on, the address's hourly limit) run
   * before it. Looking the address up, making the token and sending the email are `afterAnswer`, which the
   * route runs once the answer has left, for every address: neither the answer's words nor its timing tell
   * whether the account exists (docs/decisions/043-links-from-configuration.md).
   */
  async requestByEmail(email: string): Promise<{ message: string; afterAnswer: () => Promise<void> }> {
    const { mailer, counters } = this.deps;
    if (!mailer) throw notFound(messages.resetByEmailOff);
    const emailKey = email.toLowerCase();
    const key = `reset-emails:${createHash('sha256').update(emailKey).digest('base64url')}`;
    const counted = await counters.increment(key, HOUR_MS);
    if (counted.count > PASSWORD_RESET_EMAILS_PER_HOUR) {
      throw tooManyRequests(messages.tooManyResetEmails, counted.ttl);
    }
    return { message: messages.resetEmailSent, afterAnswer: () => this.emailLink(mailer, emailKey) };
  }

  /** Mails a link when the address belongs to an active account; failures are logged, never thrown. */
  private async emailLink(mailer: Mailer, emailKey: string): Promise<void> {
    try {
      // Made and hashed for every address, so the work before the lookup does not depend on it either.
      const token = newSecretToken();
      const tokenHash = hashToken(token);
      const user = await findUserByEmailKey(this.deps.db, emailKey);
      if (user?.status !== 'active') return;
      await this.storeToken(user.id, tokenHash);
      await mailer.send({
        to: user.email,
        subject: 'Set a new password for The Dojo',
        text: [
          `Hello ${user.display_name},`,
          '',
          'Someone (hopefully you) asked to set a new password for your account. Open this link within an hour:',
          '',
          // Emailed links point at PUBLIC_URL only: a mailer cannot exist without it (mailSettingsOf).
          resetUrl(mailer.publicUrl, token),
          '',
          'If you did not ask for this, ignore this email: your password stays as it is.',
        ].join('\n'),
      });
    } catch (error) {
      this.deps.log.error({ err: error }, 'emailing a password reset link failed');
    }
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
    await this.deps.writes.run(async (trx, write) => {
      const now = nowIso();
      if (!(await consumePasswordReset(trx, tokenHash, now))) {
        throw new AppError('gone', row.used_at ? messages.resetLinkUsed : messages.resetLinkExpired);
      }
      await updatePasswordHash(trx, row.user_id, passwordHash, now);
      this.deps.auth.declareSessionsEnded(write, await deleteUserSessions(trx, row.user_id));
    });
  }

  /**
   * Voids the user's older links, stores this one's hash and returns when it expires. `madeBy`: the admin
   * who made it, whose demotion voids it (decision 046); null for an emailed link.
   */
  private async storeToken(userId: string, tokenHash: string, madeBy: string | null = null): Promise<string> {
    const now = nowIso();
    const expiresAt = new Date(Date.parse(now) + PASSWORD_RESET_TTL_MS).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      if (madeBy) await lockAsActiveAdmin(trx, madeBy);
      await voidPasswordResetsOf(trx, userId, now);
      await insertPasswordReset(trx, { tokenHash, userId, expiresAt, now, createdBy: madeBy });
    });
    return expiresAt;
  }
}

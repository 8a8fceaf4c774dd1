import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { messages, NOTIFICATION_KINDS, type NotificationKind } from '../../common';
import type { Mailer } from './mailer';
import type { Database } from '../db/schema';
import { getOrCreateSecretKey } from '../db/settings-repository';
import type { ChangeBus } from '../db/change-bus';
import { AppError } from '../core/app-error';
import type { Logger } from '../core/logger';
import { zonedDayAndHour } from '../core/time';
import type { Clock } from './due-reminders';
import {
  advanceWatermark,
  claimBatch,
  findDueBatches,
  findEmailCandidates,
  findMailableNotifications,
  insertOutboxRows,
  markFailed,
  markSent,
  turnEmailOff,
  type OutboxRow,
} from './email-repository';
import { renderDigest, renderImmediate, type LinkBuilder } from './email-messages';

const SECRET_KEY = 'notification_unsubscribe_key';
const SCAN_LIMIT = 500;
/** Longer than nodemailer's own timeouts, so a claim outlives an SMTP conversation in progress. */
const CLAIM_MS = 5 * 60_000;
const RETRY_MS = 60_000;

const addDays = (day: string, days: number): string => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

interface NotificationEmailDeps {
  db: Kysely<Database>;
  bus: ChangeBus;
  mailer: Mailer;
  clock: Clock;
  timeZone: string;
  digestHour: number;
  intervalMs: number;
  log: Logger;
}

/**
 * Notification email (decision 029). Every instance runs it: a `notifications` change on the bus wakes it
 * (a slow timer catches what a restart missed); it copies new notifications whose recipient wants email
 * into the outbox table, then sends what is due, claiming each message in the database so that exactly
 * one instance sends it.
 */
export class NotificationEmailOutbox {
  private timer: NodeJS.Timeout | undefined;
  private unsubscribeBus: (() => void) | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private secret: Uint8Array | undefined;

  constructor(private readonly deps: NotificationEmailDeps) {}

  start(): void {
    if (this.timer) return;
    this.unsubscribeBus = this.deps.bus.subscribe((changes) => {
      if (changes === 'resync' || changes.some((change) => change.collection === 'notifications'))
        this.wake();
    });
    this.timer = setInterval(() => this.wake(), this.deps.intervalMs);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.unsubscribeBus?.();
    clearInterval(this.timer);
    this.timer = undefined;
    this.again = false;
    await this.running;
  }

  /** Runs one pass now, or one more right after the pass in progress. */
  private wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'notification email failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && this.timer) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Enqueues what is new, then sends what is due. */
  async pass(): Promise<void> {
    await this.enqueueNew();
    await this.sendDue();
  }

  private async enqueueNew(): Promise<void> {
    const { db, clock, timeZone, digestHour } = this.deps;
    for (;;) {
      const { candidates, scannedUpTo } = await findEmailCandidates(db, SCAN_LIMIT);
      const now = clock();
      const { day, hour } = zonedDayAndHour(now, timeZone);
      // A digest goes out at the next digest hour: today's if it is still ahead, else tomorrow's.
      const digestDay = hour < digestHour ? day : addDays(day, 1);
      const rows: OutboxRow[] = candidates.map((candidate) =>
        candidate.mode === 'immediate'
          ? {
              notificationId: candidate.notificationId,
              userId: candidate.userId,
              batchKey: `immediate:${candidate.notificationId}`,
              digestDay: null,
            }
          : {
              notificationId: candidate.notificationId,
              userId: candidate.userId,
              batchKey: `digest:${candidate.userId}:${digestDay}`,
              digestDay,
            },
      );
      await insertOutboxRows(db, rows, now.toISOString());
      // Past notifications nobody wants mailed too, so the next scan starts near the newest.
      await advanceWatermark(db, scannedUpTo);
      if (candidates.length < SCAN_LIMIT) return;
    }
  }

  private async sendDue(): Promise<void> {
    const { db, clock, timeZone, digestHour } = this.deps;
    const { day, hour } = zonedDayAndHour(clock(), timeZone);
    // The latest digest day whose hour has come.
    const digestDayDue = hour >= digestHour ? day : addDays(day, -1);
    for (;;) {
      const realNow = new Date();
      const batches = await findDueBatches(db, digestDayDue, realNow.toISOString(), SCAN_LIMIT);
      for (const batchKey of batches) await this.sendBatch(batchKey);
      if (batches.length < SCAN_LIMIT) return;
    }
  }

  private async sendBatch(batchKey: string): Promise<void> {
    const { db, mailer, log } = this.deps;
    const realNow = Date.now();
    const claimed = await claimBatch(
      db,
      batchKey,
      new Date(realNow).toISOString(),
      new Date(realNow + CLAIM_MS).toISOString(),
    );
    if (claimed.length === 0) return; // another instance has it
    // A kind whose email was turned off since it was queued is not sent (and not retried).
    const notifications = (await findMailableNotifications(db, claimed)).filter(
      (notification) => notification.email === 'immediate' || notification.email === 'digest',
    );
    const sentAt = new Date().toISOString();
    if (notifications.length === 0) {
      await markSent(db, claimed, sentAt);
      return;
    }
    const links = await this.links();
    const email = batchKey.startsWith('digest:')
      ? renderDigest(notifications, batchKey.slice(batchKey.lastIndexOf(':') + 1), links)
      : renderImmediate(notifications[0]!, links);
    try {
      await mailer.send({
        to: notifications[0]!.recipientEmail,
        subject: email.subject,
        text: email.text,
        html: email.html,
        headers: {
          'List-Unsubscribe': `<${email.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } catch (error) {
      log.warn({ err: error, batchKey }, 'notification email not sent; will retry');
      await markFailed(db, claimed, new Date(Date.now() + RETRY_MS).toISOString());
      return;
    }
    await markSent(db, claimed, new Date().toISOString());
  }

  private async links(): Promise<LinkBuilder> {
    const secret = await this.unsubscribeSecret();
    // The mailer's PUBLIC_URL, which sending email requires: no request's host ever gets into an email.
    const base = this.deps.mailer.publicUrl;
    return {
      appUrl: (path) => `${base}${path}`,
      unsubscribeUrl: (userId, kind) =>
        `${base}/api/notifications/unsubscribe?token=${encodeURIComponent(signToken(secret, userId, kind))}`,
    };
  }

  private async unsubscribeSecret(): Promise<Uint8Array> {
    this.secret ??= await getOrCreateSecretKey(this.deps.db, SECRET_KEY);
    return this.secret;
  }

  /** One-click unsubscribe: the token names (user, kind) and is signed; turns that kind's email off. */
  async unsubscribe(token: string): Promise<NotificationKind> {
    const { userId, kind } = verifyToken(await this.unsubscribeSecret(), token);
    if (!(await turnEmailOff(this.deps.db, userId, kind))) throw invalidToken();
    return kind;
  }
}

const invalidToken = () => new AppError('invalid-argument', messages.unsubscribeLinkInvalid);

const mac = (secret: Uint8Array, payload: string) =>
  createHmac('sha256', secret).update(payload).digest('base64url');

function signToken(secret: Uint8Array, userId: string, kind: NotificationKind): string {
  const payload = Buffer.from(`${userId}\n${kind}`).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

function verifyToken(secret: Uint8Array, token: string): { userId: string; kind: NotificationKind } {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) throw invalidToken();
  const expected = Buffer.from(mac(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidToken();
  const [userId, kind] = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  if (!userId || !NOTIFICATION_KINDS.includes(kind as NotificationKind)) throw invalidToken();
  return { userId, kind: kind as NotificationKind };
}

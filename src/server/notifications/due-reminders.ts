import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { Change, ChangeBus } from '../db/change-bus';
import { UnitOfWork } from '../db/unit-of-work';
import type { Logger } from '../core/logger';
import { zonedDayAndHour } from '../core/time';
import { insertDueReminders, type DueReminderDays } from './due-reminders-repository';

/** What time it is; the scheduler asks on every tick so tests can move it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * Test only: the time written in `file` (an ISO string), or the real time while the file is missing or
 * blank. Lets a test move a running server past midnight without waiting for one (decision 026).
 */
export function fileClock(file: string): Clock {
  return () => {
    let text = '';
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      // No file yet: real time.
    }
    const time = text ? new Date(text) : new Date();
    return Number.isNaN(time.getTime()) ? new Date() : time;
  };
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** Today and tomorrow as calendar days in `timeZone` (decision 026), and `now` to stamp reminders with. */
export function reminderDays(now: Date, timeZone: string): DueReminderDays {
  const today = zonedDayAndHour(now, timeZone).day;
  return { today, tomorrow: nextDay(today), now: now.toISOString() };
}

interface DueReminderSchedulerDeps {
  db: Kysely<Database>;
  bus: ChangeBus;
  clock: Clock;
  timeZone: string;
  intervalMs: number;
  log: Logger;
}

/**
 * Runs on every instance: each tick creates the 'due tomorrow' and 'overdue' notifications that are due.
 * Exactly-once lives in the database (a unique dedupe key), not here, so instances need no coordination
 * and a restart simply ticks again.
 */
export class DueReminderScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  private readonly writes: UnitOfWork;

  constructor(private readonly deps: DueReminderSchedulerDeps) {
    this.writes = new UnitOfWork({ db: deps.db, changes: deps.bus });
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tickInBackground(), this.deps.intervalMs);
    this.timer.unref();
    this.tickInBackground();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /**
   * Creates what is due now and publishes the recipients' change at the same commit (on PostgreSQL the
   * NOTIFY is inside the transaction, so a crash cannot keep the bells from hearing); returns how many were
   * created.
   */
  async tick(): Promise<number> {
    const days = reminderDays(this.deps.clock(), this.deps.timeZone);
    return this.writes.run(async (trx, write) => {
      const recipients = [
        ...(await insertDueReminders(trx, 'due_tomorrow', days)),
        ...(await insertDueReminders(trx, 'overdue', days)),
      ];
      write.changed(...[...new Set(recipients)].map((id): Change => ({ collection: 'notifications', id })));
      return recipients.length;
    });
  }

  private tickInBackground(): void {
    // One tick at a time per instance; a slow tick makes the next one wait for the following interval.
    if (this.running) return;
    this.running = this.tick()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'due reminders failed'))
      .finally(() => {
        this.running = undefined;
      });
  }
}
